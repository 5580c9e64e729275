import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, atan, reduce_var, reciprocal_soft
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(8, 16, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.atan(x)
        x = torch.var(x, dim=(2, 3, 4))
        x = 1.0 / (1.0 + x.abs())
        return x


batch_size = 33


def get_inputs():
    return [torch.randn(batch_size, 8, 24, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
