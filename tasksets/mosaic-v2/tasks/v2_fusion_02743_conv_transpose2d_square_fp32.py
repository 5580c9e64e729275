import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, square
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 16, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * x
        return x


batch_size = 74


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
