import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): abs (bf16).

    Ops: abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.abs(x)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 64, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
