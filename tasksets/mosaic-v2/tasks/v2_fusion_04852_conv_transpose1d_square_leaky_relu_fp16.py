import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose1d, square, leaky_relu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(64, 64, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * x
        x = F.leaky_relu(x, negative_slope=0.05)
        return x


batch_size = 8622


def get_inputs():
    return [torch.randn(batch_size, 64, 1024, dtype=dtype)]


def get_init_inputs():
    return []
