import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (activation): hardswish (fp32).

    Ops: hardswish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardswish(x)
        return x


batch_size = 10922


def get_inputs():
    return [torch.randn(batch_size, 3, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
