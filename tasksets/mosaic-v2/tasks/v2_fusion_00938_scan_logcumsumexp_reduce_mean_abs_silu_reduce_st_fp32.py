import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: scan_logcumsumexp, reduce_mean_abs, silu, reduce_std
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.logcumsumexp(x, dim=2)
        x = torch.mean(x.abs(), dim=1)
        x = F.silu(x)
        x = torch.std(x, dim=1)
        return x


batch_size = 1220


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype)]


def get_init_inputs():
    return []
