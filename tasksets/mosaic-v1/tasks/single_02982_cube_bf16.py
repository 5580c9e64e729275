import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """cube (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * x * x
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 16, 16384, dtype=dtype)]


def get_init_inputs():
    return []
