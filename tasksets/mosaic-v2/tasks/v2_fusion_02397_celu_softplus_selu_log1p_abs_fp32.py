import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: celu, softplus, selu, log1p_abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.celu(x, alpha=0.71)
        x = F.softplus(x, beta=2.16)
        x = F.selu(x)
        x = torch.log1p(x.abs())
        return x


batch_size = 5313


def get_inputs():
    return [torch.randn(batch_size, 64, 1024, dtype=dtype)]


def get_init_inputs():
    return []
