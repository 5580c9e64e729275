import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, hardsigmoid, reduce_amin, softshrink
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(128, 16, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardsigmoid(x)
        x = torch.amin(x, dim=1)
        x = F.softshrink(x, lambd=0.1)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
