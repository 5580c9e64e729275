import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): log1p_abs (fp16).

    Ops: log1p_abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.log1p(x.abs())
        return x


batch_size = 14941


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
