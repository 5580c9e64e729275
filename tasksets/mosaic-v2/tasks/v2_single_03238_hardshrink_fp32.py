import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (activation): hardshrink (fp32).

    Ops: hardshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardshrink(x, lambd=0.27)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
