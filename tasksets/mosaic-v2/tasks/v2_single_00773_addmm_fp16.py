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
        x = torch.addmm(bias, A, B, beta=0.82, alpha=0.94)
        return x


batch_size = 96


def get_inputs():
    return [torch.randn(batch_size * 4096, 256, dtype=dtype), torch.randn(256, 4096, dtype=dtype), torch.randn(4096, dtype=dtype)]


def get_init_inputs():
    return []
