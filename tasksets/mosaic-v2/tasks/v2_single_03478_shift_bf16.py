import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): shift (bf16).

    Ops: shift
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x + 0.36
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 32, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
