import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): binary_sub (fp32).

    Ops: binary_sub
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = x - y
        return x


batch_size = 293466


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 16, dtype=dtype), torch.randn(batch_size, 3, 32, 16, dtype=dtype)]


def get_init_inputs():
    return []
