import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, reduce_amin, cube, scan_cumsum
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 2048) * 0.0221)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.amin(x, dim=2)
        x = x * x * x
        x = torch.cumsum(x, dim=1)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype)]


def get_init_inputs():
    return []
