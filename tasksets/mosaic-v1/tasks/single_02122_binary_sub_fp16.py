import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """binary_sub (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = x - y
        return x


batch_size = 2006


def get_inputs():
    return [torch.randn(batch_size, 128, 112, 56, dtype=dtype), torch.randn(batch_size, 128, 112, 56, dtype=dtype)]


def get_init_inputs():
    return []
