import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """scale -> reduce_std (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * 2.36
        x = torch.std(x, dim=(2, 3))
        return x


batch_size = 1472


def get_inputs():
    return [torch.randn(batch_size, 32, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
