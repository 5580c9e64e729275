import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: hardtanh, reduce_var, abs, reciprocal_soft, mish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardtanh(x, min_val=-2.3, max_val=2.3)
        x = torch.var(x, dim=1)
        x = torch.abs(x)
        x = 1.0 / (1.0 + x.abs())
        x = F.mish(x)
        return x


batch_size = 25726


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
