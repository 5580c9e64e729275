import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv2d -> softshrink (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 16, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.softshrink(x, lambd=0.17)
        return x


batch_size = 3374


def get_inputs():
    return [torch.randn(batch_size, 64, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
