import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """sin -> hardshrink (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        x = F.hardshrink(x, lambd=0.29)
        return x


batch_size = 416


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
