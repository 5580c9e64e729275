import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): binary_sub (bf16).

    Ops: binary_sub
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = x - y
        return x


batch_size = 10922


def get_inputs():
    return [torch.randn(batch_size, 4, 16, 48, 48, dtype=dtype), torch.randn(batch_size, 4, 16, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
