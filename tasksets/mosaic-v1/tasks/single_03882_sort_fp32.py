import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """sort (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sort(x, dim=-1).values
        return x


batch_size = 163


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
