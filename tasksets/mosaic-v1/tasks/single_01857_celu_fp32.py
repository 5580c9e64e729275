import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """celu (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.celu(x, alpha=2.18)
        return x


batch_size = 384


def get_inputs():
    return [torch.randn(batch_size, 128, 16384, dtype=dtype)]


def get_init_inputs():
    return []
