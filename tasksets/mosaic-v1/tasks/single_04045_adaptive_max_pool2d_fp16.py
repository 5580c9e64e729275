import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """adaptive_max_pool2d (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.adaptive_max_pool2d(x, 2)
        return x


batch_size = 1003


def get_inputs():
    return [torch.randn(batch_size, 128, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
