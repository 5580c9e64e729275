import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, atan, shift, cos, reduce_mean
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.atan(x)
        x = x + 0.2
        x = torch.cos(x)
        x = torch.mean(x, dim=1)
        return x


batch_size = 1989


def get_inputs():
    return [torch.randn(batch_size, 16, 64, 32, dtype=dtype)]


def get_init_inputs():
    return []
