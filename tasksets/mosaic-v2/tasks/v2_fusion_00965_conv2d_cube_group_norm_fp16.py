import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv2d, cube, group_norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 128, kernel_size=3, stride=1, padding=1)
        self.gn = nn.GroupNorm(16, 128)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * x * x
        x = self.gn(x)
        return x


batch_size = 83


def get_inputs():
    return [torch.randn(batch_size, 32, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
