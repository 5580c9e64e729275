import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, shift, selu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 64, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x + 0.4
        x = F.selu(x)
        return x


batch_size = 194


def get_inputs():
    return [torch.randn(batch_size, 128, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
