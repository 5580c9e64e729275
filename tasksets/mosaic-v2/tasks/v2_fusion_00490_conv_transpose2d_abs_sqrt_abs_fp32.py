import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, abs, sqrt_abs
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(64, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.abs(x)
        x = torch.sqrt(x.abs() + 0.25)
        return x


batch_size = 110


def get_inputs():
    return [torch.randn(batch_size, 64, 224, 112, dtype=dtype)]


def get_init_inputs():
    return []
