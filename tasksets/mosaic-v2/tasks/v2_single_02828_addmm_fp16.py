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
        x = torch.addmm(bias, A, B, beta=1.03, alpha=0.65)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size * 1024, 256, dtype=dtype), torch.randn(256, 1024, dtype=dtype), torch.randn(1024, dtype=dtype)]


def get_init_inputs():
    return []
