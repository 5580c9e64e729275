import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv2d_depthwise -> leaky_relu -> sqrt_abs -> masked_fill -> hardshrink -> frac_sin (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, kernel_size=7, stride=1, padding=3, groups=3)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.leaky_relu(x, negative_slope=0.38)
        x = torch.sqrt(x.abs() + 0.23)
        x = x.masked_fill(x < -0.42, 0.0)
        x = F.hardshrink(x, lambd=0.15)
        x = torch.sin(2.05 * x) * x
        return x


batch_size = 1452


def get_inputs():
    return [torch.randn(batch_size, 3, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
