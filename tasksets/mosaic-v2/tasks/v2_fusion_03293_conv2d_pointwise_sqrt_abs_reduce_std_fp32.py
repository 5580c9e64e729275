import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_pointwise, sqrt_abs, reduce_std
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 64, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sqrt(x.abs() + 0.09)
        x = torch.std(x, dim=(2, 3))
        return x


batch_size = 686


def get_inputs():
    return [torch.randn(batch_size, 32, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
