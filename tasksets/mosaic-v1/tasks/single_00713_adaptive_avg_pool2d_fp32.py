import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """adaptive_avg_pool2d (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.adaptive_avg_pool2d(x, 7)
        return x


batch_size = 125


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
