import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """clamp (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.clamp(x, min=-2.2, max=2.2)
        return x


batch_size = 1442


def get_inputs():
    return [torch.randn(batch_size, 32, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
