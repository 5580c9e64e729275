import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, softplus, frac_sin, erf
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(16, 64, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.softplus(x, beta=1.92)
        x = torch.sin(2.15 * x) * x
        x = torch.erf(x)
        return x


batch_size = 620


def get_inputs():
    return [torch.randn(batch_size, 16, 2048, dtype=dtype)]


def get_init_inputs():
    return []
