import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv2d, channel_scale, silu, reduce_amax, cube, selu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 128, kernel_size=5, stride=1, padding=2)
        self.scale = nn.Parameter(torch.rand(128, 1, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * self.scale
        x = F.silu(x)
        x = torch.amax(x, dim=(2, 3))
        x = x * x * x
        x = F.selu(x)
        return x


batch_size = 25


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
