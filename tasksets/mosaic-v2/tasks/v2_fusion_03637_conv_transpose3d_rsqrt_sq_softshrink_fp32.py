import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, rsqrt_sq, softshrink
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(32, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.rsqrt(x * x + 1.0)
        x = F.softshrink(x, lambd=0.1)
        return x


batch_size = 67


def get_inputs():
    return [torch.randn(batch_size, 32, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
