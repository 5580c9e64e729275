import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """sign_sqrt -> binary_sub (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x - y
        return x


batch_size = 781


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype), torch.randn(batch_size, 2048, 512, dtype=dtype)]


def get_init_inputs():
    return []
