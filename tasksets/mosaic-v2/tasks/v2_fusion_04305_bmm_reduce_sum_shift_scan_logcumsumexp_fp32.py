import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, reduce_sum, shift, scan_logcumsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.sum(x, dim=1)
        x = x + 0.55
        x = torch.logcumsumexp(x, dim=1)
        return x


batch_size = 327


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype), torch.randn(batch_size, 1024, 128, dtype=dtype) / 32]


def get_init_inputs():
    return []
