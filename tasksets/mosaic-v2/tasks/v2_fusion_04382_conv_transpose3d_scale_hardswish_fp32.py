import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, scale, hardswish
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(3, 64, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * 0.85
        x = F.hardswish(x)
        return x


batch_size = 21


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
