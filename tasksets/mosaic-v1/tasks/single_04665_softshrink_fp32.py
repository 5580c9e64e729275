import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """softshrink (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softshrink(x, lambd=0.5)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
