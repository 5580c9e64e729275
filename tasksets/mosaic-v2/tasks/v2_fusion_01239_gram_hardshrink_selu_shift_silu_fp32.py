import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, hardshrink, selu, shift, silu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 1024
        x = F.hardshrink(x, lambd=0.07)
        x = F.selu(x)
        x = x + 0.32
        x = F.silu(x)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
