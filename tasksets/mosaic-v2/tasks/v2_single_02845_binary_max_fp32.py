import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): binary_max (fp32).

    Ops: binary_max
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.maximum(x, y)
        return x


batch_size = 4096


def get_inputs():
    return [torch.randn(batch_size, 32, 24, 16, 16, dtype=dtype), torch.randn(batch_size, 32, 24, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
