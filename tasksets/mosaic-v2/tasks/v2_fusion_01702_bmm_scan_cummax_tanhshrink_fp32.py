import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, scan_cummax, tanhshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.cummax(x, dim=2).values
        x = F.tanhshrink(x)
        return x


batch_size = 2021


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype), torch.randn(batch_size, 256, 512, dtype=dtype) / 16]


def get_init_inputs():
    return []
