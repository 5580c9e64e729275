import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_pointwise, softshrink
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 16, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.softshrink(x, lambd=0.55)
        return x


batch_size = 192


def get_inputs():
    return [torch.randn(batch_size, 64, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
