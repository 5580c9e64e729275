import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_depthwise, binary_where, adaptive_max_pool2d, cos, log1p_abs
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 32, kernel_size=7, stride=1, padding=3, groups=32)
        self.to(dtype)

    def forward(self, x, y):
        x = self.conv(x)
        x = torch.where(x > y, x, y * 0.5)
        x = F.adaptive_max_pool2d(x, 1)
        x = torch.cos(x)
        x = torch.log1p(x.abs())
        return x


batch_size = 300


def get_inputs():
    return [torch.randn(batch_size, 32, 128, 128, dtype=dtype), torch.randn(batch_size, 32, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
