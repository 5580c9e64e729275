import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """ConvNeXt block (fp16).

    Ops: conv2d_depthwise, permute, layer_norm, linear, gelu, linear, mul, add
    """

    def __init__(self):
        super().__init__()
        self.dwconv = nn.Conv2d(32, 32, 7, padding=3, groups=32)
        self.norm = nn.LayerNorm(32, eps=1e-6)
        self.pw1 = nn.Linear(32, 128)
        self.pw2 = nn.Linear(128, 32)
        self.gamma = nn.Parameter(torch.full((32,), 0.1))
        self.to(dtype)

    def forward(self, x):
        h = self.dwconv(x).permute(0, 2, 3, 1)
        h = self.pw2(F.gelu(self.pw1(self.norm(h))))
        x = x + (self.gamma * h).permute(0, 3, 1, 2)
        return x


batch_size = 5748


def get_inputs():
    return [torch.randn(batch_size, 32, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
