import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose2d, square
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 16, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * x
        return x


batch_size = 171


def get_inputs():
    return [torch.randn(batch_size, 16, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
