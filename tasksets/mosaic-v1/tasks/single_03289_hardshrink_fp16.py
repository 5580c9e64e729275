import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """hardshrink (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardshrink(x, lambd=0.3)
        return x


batch_size = 768


def get_inputs():
    return [torch.randn(batch_size, 16, 32, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
