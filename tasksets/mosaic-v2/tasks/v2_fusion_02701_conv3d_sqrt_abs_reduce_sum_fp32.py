import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d, sqrt_abs, reduce_sum
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sqrt(x.abs() + 0.57)
        x = torch.sum(x, dim=(2, 3, 4))
        return x


batch_size = 4100


def get_inputs():
    return [torch.randn(batch_size, 3, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
