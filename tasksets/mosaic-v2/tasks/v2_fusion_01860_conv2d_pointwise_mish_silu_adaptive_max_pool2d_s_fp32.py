import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_pointwise, mish, silu, adaptive_max_pool2d, square
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 128, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.mish(x)
        x = F.silu(x)
        x = F.adaptive_max_pool2d(x, 4)
        x = x * x
        return x


batch_size = 383


def get_inputs():
    return [torch.randn(batch_size, 128, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
