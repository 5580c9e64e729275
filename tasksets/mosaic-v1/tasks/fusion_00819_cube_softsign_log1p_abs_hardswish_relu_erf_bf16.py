import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """cube -> softsign -> log1p_abs -> hardswish -> relu -> erf (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * x * x
        x = F.softsign(x)
        x = torch.log1p(x.abs())
        x = F.hardswish(x)
        x = torch.relu(x)
        x = torch.erf(x)
        return x


batch_size = 2678


def get_inputs():
    return [torch.randn(batch_size, 32, 24, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
