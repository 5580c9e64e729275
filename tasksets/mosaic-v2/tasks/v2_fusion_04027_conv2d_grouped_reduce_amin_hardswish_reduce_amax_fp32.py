import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_grouped, reduce_amin, hardswish, reduce_amax
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 64, kernel_size=3, stride=1, padding=1, groups=8)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.amin(x, dim=(2, 3))
        x = F.hardswish(x)
        x = torch.amax(x, dim=1)
        return x


batch_size = 2593


def get_inputs():
    return [torch.randn(batch_size, 16, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
