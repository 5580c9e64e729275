import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, frac_sin, bias_add, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(128, 64, kernel_size=4, stride=2, padding=1)
        self.bias = nn.Parameter(torch.randn(64, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sin(2.3 * x) * x
        x = x + self.bias
        x = F.hardshrink(x, lambd=0.55)
        return x


batch_size = 1053


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
