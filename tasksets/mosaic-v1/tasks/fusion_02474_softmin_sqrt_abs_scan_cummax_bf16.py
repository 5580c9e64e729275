import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """softmin -> sqrt_abs -> scan_cummax (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softmin(x, dim=-1)
        x = torch.sqrt(x.abs() + 0.2)
        x = torch.cummax(x, dim=1).values
        return x


batch_size = 375414


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
