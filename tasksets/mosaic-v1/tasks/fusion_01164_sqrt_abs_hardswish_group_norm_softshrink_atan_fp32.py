import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """sqrt_abs -> hardswish -> group_norm -> softshrink -> atan (fp32)."""

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(2, 8)
        self.to(dtype)

    def forward(self, x):
        x = torch.sqrt(x.abs() + 0.37)
        x = F.hardswish(x)
        x = self.gn(x)
        x = F.softshrink(x, lambd=0.43)
        x = torch.atan(x)
        return x


batch_size = 564


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
