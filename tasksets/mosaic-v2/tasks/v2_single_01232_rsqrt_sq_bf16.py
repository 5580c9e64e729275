import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): rsqrt_sq (bf16).

    Ops: rsqrt_sq
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.rsqrt(x * x + 1.0)
        return x


batch_size = 30821


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
