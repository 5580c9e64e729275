import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d, atan, cube, reduce_var
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 16, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.atan(x)
        x = x * x * x
        x = torch.var(x, dim=(2, 3))
        return x


batch_size = 334


def get_inputs():
    return [torch.randn(batch_size, 16, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
