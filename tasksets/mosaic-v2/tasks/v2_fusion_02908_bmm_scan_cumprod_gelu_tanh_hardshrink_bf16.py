import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, scan_cumprod, gelu_tanh, hardshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.cumprod(1.0 + 0.01 * x, dim=2)
        x = F.gelu(x, approximate='tanh')
        x = F.hardshrink(x, lambd=0.41)
        return x


batch_size = 578


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype), torch.randn(batch_size, 1024, 128, dtype=dtype) / 32]


def get_init_inputs():
    return []
