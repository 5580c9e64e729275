import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv3d_grouped -> clamp (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 256, kernel_size=3, stride=1, padding=1, groups=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.clamp(x, min=-1.79, max=1.79)
        return x


batch_size = 22


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
