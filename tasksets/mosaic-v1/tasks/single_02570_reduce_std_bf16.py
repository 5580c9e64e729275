import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """reduce_std (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.std(x, dim=(2,))
        return x


batch_size = 17100


def get_inputs():
    return [torch.randn(batch_size, 32, 2048, dtype=dtype)]


def get_init_inputs():
    return []
