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
        x = torch.sqrt(x.abs() + 0.55)
        return x


batch_size = 545242


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
