import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, tanhshrink, leaky_relu, hardsigmoid, cos
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(8, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.tanhshrink(x)
        x = F.leaky_relu(x, negative_slope=0.13)
        x = F.hardsigmoid(x)
        x = torch.cos(x)
        return x


batch_size = 224


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
