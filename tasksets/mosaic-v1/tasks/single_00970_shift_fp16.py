import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """shift (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x + 0.33
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
