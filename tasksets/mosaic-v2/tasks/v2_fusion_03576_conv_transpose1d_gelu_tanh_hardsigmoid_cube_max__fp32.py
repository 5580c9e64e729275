import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, gelu_tanh, hardsigmoid, cube, max_pool1d, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(16, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.gelu(x, approximate='tanh')
        x = F.hardsigmoid(x)
        x = x * x * x
        x = F.max_pool1d(x, kernel_size=3, stride=2, padding=1)
        x = x.masked_fill(x < -0.44, 0.0)
        return x


batch_size = 227


def get_inputs():
    return [torch.randn(batch_size, 16, 16384, dtype=dtype)]


def get_init_inputs():
    return []
