import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, sign_sqrt, cube, group_norm
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(8, 64, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.gn = nn.GroupNorm(16, 64)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x * x * x
        x = self.gn(x)
        return x


batch_size = 12


def get_inputs():
    return [torch.randn(batch_size, 8, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
