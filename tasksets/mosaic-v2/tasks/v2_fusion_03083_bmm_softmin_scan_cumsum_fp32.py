import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, softmin, scan_cumsum
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.softmin(x, dim=-1)
        x = torch.cumsum(x, dim=2)
        return x


batch_size = 236


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype), torch.randn(batch_size, 2048, 256, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
