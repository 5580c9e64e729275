import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: silu, softshrink, reduce_std
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.silu(x)
        x = F.softshrink(x, lambd=0.29)
        x = torch.std(x, dim=1)
        return x


batch_size = 32093


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
