import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, bias_add, erf, sqrt_abs, mish
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(3, 16, kernel_size=2, stride=2, padding=0)
        self.bias = nn.Parameter(torch.randn(16, 1, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x + self.bias
        x = torch.erf(x)
        x = torch.sqrt(x.abs() + 0.57)
        x = F.mish(x)
        return x


batch_size = 81


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
