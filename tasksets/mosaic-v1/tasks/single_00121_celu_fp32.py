import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """celu (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.celu(x, alpha=0.99)
        return x


batch_size = 10048


def get_inputs():
    return [torch.randn(batch_size, 64, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
