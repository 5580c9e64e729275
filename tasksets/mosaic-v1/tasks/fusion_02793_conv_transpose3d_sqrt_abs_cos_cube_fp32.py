import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv_transpose3d -> sqrt_abs -> cos -> cube (fp32)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(4, 64, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sqrt(x.abs() + 0.34)
        x = torch.cos(x)
        x = x * x * x
        return x


batch_size = 41


def get_inputs():
    return [torch.randn(batch_size, 4, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
