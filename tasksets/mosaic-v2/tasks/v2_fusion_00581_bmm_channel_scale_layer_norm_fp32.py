import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, channel_scale, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(128,) + 0.5)
        self.ln = nn.LayerNorm(128, eps=1e-6)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = x * self.scale
        x = self.ln(x)
        return x


batch_size = 1224


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype), torch.randn(batch_size, 2048, 128, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
