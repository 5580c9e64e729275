import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """ConvNeXt block (bf16).

    Ops: conv2d_depthwise, permute, layer_norm, linear, gelu, linear, mul, add
    """

    def __init__(self):
        super().__init__()
        self.dwconv = nn.Conv2d(64, 64, 7, padding=3, groups=64)
        self.norm = nn.LayerNorm(64, eps=1e-6)
        self.pw1 = nn.Linear(64, 256)
        self.pw2 = nn.Linear(256, 64)
        self.gamma = nn.Parameter(torch.full((64,), 0.1))
        self.to(dtype)

    def forward(self, x):
        h = self.dwconv(x).permute(0, 2, 3, 1)
        h = self.pw2(F.gelu(self.pw1(self.norm(h))))
        x = x + (self.gamma * h).permute(0, 3, 1, 2)
        return x


batch_size = 2014


def get_inputs():
    return [torch.randn(batch_size, 64, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
