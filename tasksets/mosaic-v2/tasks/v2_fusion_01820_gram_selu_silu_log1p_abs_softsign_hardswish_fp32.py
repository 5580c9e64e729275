import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, selu, silu, log1p_abs, softsign, hardswish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 256
        x = F.selu(x)
        x = F.silu(x)
        x = torch.log1p(x.abs())
        x = F.softsign(x)
        x = F.hardswish(x)
        return x


batch_size = 196


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype)]


def get_init_inputs():
    return []
