import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_depthwise, hardshrink, channel_scale, relu6
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 256, kernel_size=5, stride=1, padding=2, groups=128)
        self.scale = nn.Parameter(torch.rand(256, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardshrink(x, lambd=0.26)
        x = x * self.scale
        x = F.relu6(x)
        return x


batch_size = 1194


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
