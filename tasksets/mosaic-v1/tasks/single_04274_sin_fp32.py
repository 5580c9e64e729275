import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """sin (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 16, 128, 64, dtype=dtype)]


def get_init_inputs():
    return []
