import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_strided, tanh, channel_scale, atan
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 32, kernel_size=3, stride=2, padding=1)
        self.scale = nn.Parameter(torch.rand(32, 1, 1, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.tanh(x)
        x = x * self.scale
        x = torch.atan(x)
        return x


batch_size = 486


def get_inputs():
    return [torch.randn(batch_size, 4, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
