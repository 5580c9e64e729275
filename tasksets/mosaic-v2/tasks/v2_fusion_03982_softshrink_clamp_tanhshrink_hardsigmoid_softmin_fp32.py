import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: softshrink, clamp, tanhshrink, hardsigmoid, softmin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softshrink(x, lambd=0.31)
        x = torch.clamp(x, min=-2.0, max=2.0)
        x = F.tanhshrink(x)
        x = F.hardsigmoid(x)
        x = F.softmin(x, dim=-1)
        return x


batch_size = 297


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
