import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv3d_dilated -> avg_pool3d -> leaky_relu -> channel_scale (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 32, kernel_size=3, stride=1, padding=2, dilation=2)
        self.scale = nn.Parameter(torch.rand(32, 1, 1, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.avg_pool3d(x, kernel_size=3, stride=2, padding=1)
        x = F.leaky_relu(x, negative_slope=0.39)
        x = x * self.scale
        return x


batch_size = 169


def get_inputs():
    return [torch.randn(batch_size, 16, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
