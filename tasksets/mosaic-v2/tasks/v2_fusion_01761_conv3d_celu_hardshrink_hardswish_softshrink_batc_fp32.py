import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d, celu, hardshrink, hardswish, softshrink, batch_norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 32, kernel_size=3, stride=1, padding=1)
        self.bn = nn.BatchNorm3d(32)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.celu(x, alpha=1.22)
        x = F.hardshrink(x, lambd=0.59)
        x = F.hardswish(x)
        x = F.softshrink(x, lambd=0.35)
        x = self.bn(x)
        return x


batch_size = 96


def get_inputs():
    return [torch.randn(batch_size, 32, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
