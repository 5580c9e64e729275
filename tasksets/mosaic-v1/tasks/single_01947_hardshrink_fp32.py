import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """hardshrink (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardshrink(x, lambd=0.17)
        return x


batch_size = 192


def get_inputs():
    return [torch.randn(batch_size, 32, 32, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
