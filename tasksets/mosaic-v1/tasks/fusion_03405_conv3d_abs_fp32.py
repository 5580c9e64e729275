import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv3d -> abs (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 16, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.abs(x)
        return x


batch_size = 117


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
