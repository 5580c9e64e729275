import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """hardswish (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardswish(x)
        return x


batch_size = 28236


def get_inputs():
    return [torch.randn(batch_size, 8, 24, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
