import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): sqrt_abs (fp32).

    Ops: sqrt_abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sqrt(x.abs() + 0.44)
        return x


batch_size = 19280


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
