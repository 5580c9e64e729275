import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: silu, cube, cos
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.silu(x)
        x = x * x * x
        x = torch.cos(x)
        return x


batch_size = 2475


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
