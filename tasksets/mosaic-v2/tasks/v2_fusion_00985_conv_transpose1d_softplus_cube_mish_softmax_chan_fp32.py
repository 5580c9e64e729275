import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, softplus, cube, mish, softmax_channel, selu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(16, 64, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.softplus(x, beta=0.77)
        x = x * x * x
        x = F.mish(x)
        x = torch.softmax(x, dim=1)
        x = F.selu(x)
        return x


batch_size = 273


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
