import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, softplus, hardtanh
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.softplus(x, beta=2.59)
        x = F.hardtanh(x, min_val=-2.55, max_val=2.55)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype), torch.randn(batch_size, 2048, 128, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
