import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, sqrt_abs, shift
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(16, 64, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sqrt(x.abs() + 0.08)
        x = x + 0.08
        return x


batch_size = 206


def get_inputs():
    return [torch.randn(batch_size, 16, 16384, dtype=dtype)]


def get_init_inputs():
    return []
