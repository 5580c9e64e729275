import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): abs (fp32).

    Ops: abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.abs(x)
        return x


batch_size = 98304


def get_inputs():
    return [torch.randn(batch_size, 8, 1024, dtype=dtype)]


def get_init_inputs():
    return []
