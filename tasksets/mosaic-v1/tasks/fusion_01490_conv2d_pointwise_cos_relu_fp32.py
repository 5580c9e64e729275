import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv2d_pointwise -> cos -> relu (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 32, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.cos(x)
        x = torch.relu(x)
        return x


batch_size = 3733


def get_inputs():
    return [torch.randn(batch_size, 16, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
