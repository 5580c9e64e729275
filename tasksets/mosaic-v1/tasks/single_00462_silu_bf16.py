import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """silu (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.silu(x)
        return x


batch_size = 16049


def get_inputs():
    return [torch.randn(batch_size, 32, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
