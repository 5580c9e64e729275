import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv2d_pointwise -> celu -> sqrt_abs -> gelu (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 256, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.celu(x, alpha=2.48)
        x = torch.sqrt(x.abs() + 0.13)
        x = F.gelu(x)
        return x


batch_size = 227


def get_inputs():
    return [torch.randn(batch_size, 32, 64, 32, dtype=dtype)]


def get_init_inputs():
    return []
