import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv_transpose2d -> softshrink -> log1p_abs -> cos (fp32)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 32, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.softshrink(x, lambd=0.58)
        x = torch.log1p(x.abs())
        x = torch.cos(x)
        return x


batch_size = 480


def get_inputs():
    return [torch.randn(batch_size, 16, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
