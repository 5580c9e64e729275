import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose2d, cube, frac_sin
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(32, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * x * x
        x = torch.sin(2.93 * x) * x
        return x


batch_size = 1109


def get_inputs():
    return [torch.randn(batch_size, 32, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
