import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """addmm (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.45, alpha=1.1)
        return x


batch_size = 4


def get_inputs():
    return [torch.randn(batch_size * 4096, 4096, dtype=dtype), torch.randn(4096, 1024, dtype=dtype), torch.randn(1024, dtype=dtype)]


def get_init_inputs():
    return []
