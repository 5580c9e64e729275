import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (activation): hardshrink (bf16).

    Ops: hardshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardshrink(x, lambd=0.44)
        return x


batch_size = 393216


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
