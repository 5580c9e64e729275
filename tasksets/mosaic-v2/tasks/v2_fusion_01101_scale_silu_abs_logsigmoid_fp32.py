import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: scale, silu, abs, logsigmoid
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * 2.09
        x = F.silu(x)
        x = torch.abs(x)
        x = F.logsigmoid(x)
        return x


batch_size = 38188


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
