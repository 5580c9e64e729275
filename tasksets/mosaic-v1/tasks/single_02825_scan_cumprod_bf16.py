import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """scan_cumprod (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.cumprod(1.0 + 0.01 * x, dim=2)
        return x


batch_size = 3079


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype)]


def get_init_inputs():
    return []
