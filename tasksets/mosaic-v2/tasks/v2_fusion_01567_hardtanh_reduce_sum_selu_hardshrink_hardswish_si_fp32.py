import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: hardtanh, reduce_sum, selu, hardshrink, hardswish, silu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardtanh(x, min_val=-1.87, max_val=1.87)
        x = torch.sum(x, dim=(2, 3, 4))
        x = F.selu(x)
        x = F.hardshrink(x, lambd=0.2)
        x = F.hardswish(x)
        x = F.silu(x)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 4, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
