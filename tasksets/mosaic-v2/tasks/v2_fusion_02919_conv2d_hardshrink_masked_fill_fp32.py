import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d, hardshrink, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardshrink(x, lambd=0.27)
        x = x.masked_fill(x < -0.34, 0.0)
        return x


batch_size = 177


def get_inputs():
    return [torch.randn(batch_size, 3, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
