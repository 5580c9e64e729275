import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, tanhshrink, adaptive_max_pool1d, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(8, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.tanhshrink(x)
        x = F.adaptive_max_pool1d(x, 2)
        x = F.hardshrink(x, lambd=0.11)
        return x


batch_size = 2300


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, dtype=dtype)]


def get_init_inputs():
    return []
