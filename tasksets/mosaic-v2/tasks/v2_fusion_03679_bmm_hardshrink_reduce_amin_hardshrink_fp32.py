import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, hardshrink, reduce_amin, hardshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.hardshrink(x, lambd=0.24)
        x = torch.amin(x, dim=2)
        x = F.hardshrink(x, lambd=0.07)
        return x


batch_size = 196


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype), torch.randn(batch_size, 768, 128, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
