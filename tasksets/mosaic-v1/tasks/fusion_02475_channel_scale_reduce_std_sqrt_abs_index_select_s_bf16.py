import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """channel_scale -> reduce_std -> sqrt_abs -> index_select -> scan_logcumsumexp (bf16)."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(16, 1, 1, 1) + 0.5)
        self.to(dtype)

    def forward(self, x, idx):
        x = x * self.scale
        x = torch.std(x, dim=(2, 3, 4))
        x = torch.sqrt(x.abs() + 0.39)
        x = torch.index_select(x, 1, idx)
        x = torch.logcumsumexp(x, dim=1)
        return x


batch_size = 1002


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 64, 64, dtype=dtype), torch.randint(0, 16, (4,), dtype=torch.long)]


def get_init_inputs():
    return []
