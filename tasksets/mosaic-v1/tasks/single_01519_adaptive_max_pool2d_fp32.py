import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """adaptive_max_pool2d (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.adaptive_max_pool2d(x, 4)
        return x


batch_size = 2006


def get_inputs():
    return [torch.randn(batch_size, 32, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
