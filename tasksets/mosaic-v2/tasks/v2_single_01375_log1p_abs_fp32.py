import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): log1p_abs (fp32).

    Ops: log1p_abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.log1p(x.abs())
        return x


batch_size = 511594


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
