import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, softplus, leaky_relu, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.softplus(x, beta=1.63)
        x = F.leaky_relu(x, negative_slope=0.56)
        x = torch.mean(x.abs(), dim=(2, 3))
        return x


batch_size = 4667


def get_inputs():
    return [torch.randn(batch_size, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
