import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): frac_sin (fp32).

    Ops: frac_sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(0.63 * x) * x
        return x


batch_size = 2088


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
