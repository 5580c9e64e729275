import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, softsign, abs, scan_cummax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = F.softsign(x)
        x = torch.abs(x)
        x = torch.cummax(x, dim=2).values
        return x


batch_size = 174


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype)]


def get_init_inputs():
    return []
