import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """addmm (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.02, alpha=0.65)
        return x


batch_size = 4


def get_inputs():
    return [torch.randn(batch_size * 4096, 2048, dtype=dtype), torch.randn(2048, 2048, dtype=dtype), torch.randn(2048, dtype=dtype)]


def get_init_inputs():
    return []
