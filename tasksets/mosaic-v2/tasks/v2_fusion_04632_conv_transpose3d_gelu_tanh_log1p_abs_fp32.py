import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, gelu_tanh, log1p_abs
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(32, 128, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.gelu(x, approximate='tanh')
        x = torch.log1p(x.abs())
        return x


batch_size = 20


def get_inputs():
    return [torch.randn(batch_size, 32, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
