import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (activation): softshrink (bf16).

    Ops: softshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softshrink(x, lambd=0.58)
        return x


batch_size = 31478


def get_inputs():
    return [torch.randn(batch_size, 3, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
