import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d, reduce_sum
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 256, kernel_size=5, stride=1, padding=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sum(x, dim=(2, 3))
        return x


batch_size = 499


def get_inputs():
    return [torch.randn(batch_size, 3, 128, 64, dtype=dtype)]


def get_init_inputs():
    return []
