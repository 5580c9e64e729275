import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """clamp -> group_norm -> leaky_relu -> channel_scale (bf16)."""

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(2, 8)
        self.scale = nn.Parameter(torch.rand(8, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = torch.clamp(x, min=-1.0, max=1.0)
        x = self.gn(x)
        x = F.leaky_relu(x, negative_slope=0.06)
        x = x * self.scale
        return x


batch_size = 13449


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, dtype=dtype)]


def get_init_inputs():
    return []
