import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """binary_lerp (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.lerp(x, y, 0.3)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype), torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
