import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: conv_transpose3d, sign_sqrt, softshrink, batch_norm, atan, leaky_relu, residual_add
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 128, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.bn = nn.BatchNorm3d(128)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.softshrink(x, lambd=0.29)
        x = self.bn(x)
        x = torch.atan(x)
        x = F.leaky_relu(x, negative_slope=0.14)
        x = x + r
        return x


batch_size = 40


def get_inputs():
    return [torch.randn(batch_size, 16, 16, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
