import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """ConvNeXt block (fp32).

    Ops: conv2d_depthwise, permute, layer_norm, linear, gelu, linear, mul, add
    """

    def __init__(self):
        super().__init__()
        self.dwconv = nn.Conv2d(192, 192, 7, padding=3, groups=192)
        self.norm = nn.LayerNorm(192, eps=1e-6)
        self.pw1 = nn.Linear(192, 768)
        self.pw2 = nn.Linear(768, 192)
        self.gamma = nn.Parameter(torch.full((192,), 0.1))
        self.to(dtype)

    def forward(self, x):
        h = self.dwconv(x).permute(0, 2, 3, 1)
        h = self.pw2(F.gelu(self.pw1(self.norm(h))))
        x = x + (self.gamma * h).permute(0, 3, 1, 2)
        return x


batch_size = 112


def get_inputs():
    return [torch.randn(batch_size, 192, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
