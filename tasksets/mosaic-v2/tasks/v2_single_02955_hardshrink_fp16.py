import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (activation): hardshrink (fp16).

    Ops: hardshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardshrink(x, lambd=0.15)
        return x


batch_size = 21845


def get_inputs():
    return [torch.randn(batch_size, 3, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
