import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: selu, rsqrt_sq, softshrink, group_norm, hardswish
    """

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(4, 128)
        self.to(dtype)

    def forward(self, x):
        x = F.selu(x)
        x = torch.rsqrt(x * x + 1.0)
        x = F.softshrink(x, lambd=0.52)
        x = self.gn(x)
        x = F.hardswish(x)
        return x


batch_size = 524


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
