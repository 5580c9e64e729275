import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, log1p_abs, swish_beta, abs, scan_cumsum_rev, log_softmax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.log1p(x.abs())
        x = x * torch.sigmoid(0.73 * x)
        x = torch.abs(x)
        x = torch.flip(torch.cumsum(torch.flip(x, [2]), dim=2), [2])
        x = torch.log_softmax(x, dim=-1)
        return x


batch_size = 2279


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype), torch.randn(batch_size, 1024, 256, dtype=dtype) / 32]


def get_init_inputs():
    return []
