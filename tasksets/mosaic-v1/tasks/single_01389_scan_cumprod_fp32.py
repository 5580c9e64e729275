import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """scan_cumprod (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.cumprod(1.0 + 0.01 * x, dim=2)
        return x


batch_size = 221


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
