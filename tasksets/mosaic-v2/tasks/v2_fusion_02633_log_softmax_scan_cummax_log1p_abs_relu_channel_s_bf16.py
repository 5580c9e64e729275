import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: log_softmax, scan_cummax, log1p_abs, relu, channel_scale, softshrink
    """

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(2048,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = torch.log_softmax(x, dim=-1)
        x = torch.cummax(x, dim=2).values
        x = torch.log1p(x.abs())
        x = torch.relu(x)
        x = x * self.scale
        x = F.softshrink(x, lambd=0.18)
        return x


batch_size = 29


def get_inputs():
    return [torch.randn(batch_size, 2048, 2048, dtype=dtype)]


def get_init_inputs():
    return []
