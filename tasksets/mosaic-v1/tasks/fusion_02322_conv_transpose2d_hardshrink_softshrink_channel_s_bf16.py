import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv_transpose2d -> hardshrink -> softshrink -> channel_scale -> hardswish (bf16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 64, kernel_size=2, stride=2, padding=0)
        self.scale = nn.Parameter(torch.rand(64, 1, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardshrink(x, lambd=0.19)
        x = F.softshrink(x, lambd=0.11)
        x = x * self.scale
        x = F.hardswish(x)
        return x


batch_size = 852


def get_inputs():
    return [torch.randn(batch_size, 128, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
