import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: sqrt_abs, hardshrink, silu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sqrt(x.abs() + 0.47)
        x = F.hardshrink(x, lambd=0.05)
        x = F.silu(x)
        return x


batch_size = 7019


def get_inputs():
    return [torch.randn(batch_size, 64, 2048, dtype=dtype)]


def get_init_inputs():
    return []
