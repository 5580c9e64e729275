import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: logsigmoid, rsqrt_sq, cos, silu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.logsigmoid(x)
        x = torch.rsqrt(x * x + 1.0)
        x = torch.cos(x)
        x = F.silu(x)
        return x


batch_size = 155


def get_inputs():
    return [torch.randn(batch_size, 16, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
