import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv2d_pointwise, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 128, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.mean(x.abs(), dim=(2, 3))
        return x


batch_size = 3426


def get_inputs():
    return [torch.randn(batch_size, 16, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
