import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """channel_scale -> cos (fp16)."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(128, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = x * self.scale
        x = torch.cos(x)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
