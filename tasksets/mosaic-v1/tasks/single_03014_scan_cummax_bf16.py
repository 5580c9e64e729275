import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """scan_cummax (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.cummax(x, dim=2).values
        return x


batch_size = 403


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
