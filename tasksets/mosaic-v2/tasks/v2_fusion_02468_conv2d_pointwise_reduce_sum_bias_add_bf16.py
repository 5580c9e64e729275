import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv2d_pointwise, reduce_sum, bias_add
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 256, kernel_size=1, stride=1, padding=0, bias=False)
        self.bias = nn.Parameter(torch.randn(14,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sum(x, dim=1)
        x = x + self.bias
        return x


batch_size = 18791


def get_inputs():
    return [torch.randn(batch_size, 16, 28, 14, dtype=dtype)]


def get_init_inputs():
    return []
