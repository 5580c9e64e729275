import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): sqrt_abs (fp16).

    Ops: sqrt_abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sqrt(x.abs() + 0.51)
        return x


batch_size = 6494


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
