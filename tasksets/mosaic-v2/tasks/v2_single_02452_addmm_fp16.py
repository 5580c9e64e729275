import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (matmul): addmm (fp16).

    Ops: addmm
    """

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.48, alpha=0.82)
        return x


batch_size = 76


def get_inputs():
    return [torch.randn(batch_size * 512, 4096, dtype=dtype), torch.randn(4096, 4096, dtype=dtype), torch.randn(4096, dtype=dtype)]


def get_init_inputs():
    return []
