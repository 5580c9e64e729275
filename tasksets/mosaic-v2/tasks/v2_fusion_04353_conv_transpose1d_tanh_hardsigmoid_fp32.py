import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, tanh, hardsigmoid
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(64, 16, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.tanh(x)
        x = F.hardsigmoid(x)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 64, 4096, dtype=dtype)]


def get_init_inputs():
    return []
