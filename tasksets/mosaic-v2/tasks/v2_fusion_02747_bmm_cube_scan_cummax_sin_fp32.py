import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, cube, scan_cummax, sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = x * x * x
        x = torch.cummax(x, dim=2).values
        x = torch.sin(x)
        return x


batch_size = 132


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype), torch.randn(batch_size, 768, 512, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
