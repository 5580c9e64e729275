import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: gram, scan_cumsum_rev, reduce_var
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = torch.flip(torch.cumsum(torch.flip(x, [2]), dim=2), [2])
        x = torch.var(x, dim=1)
        return x


batch_size = 744


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
