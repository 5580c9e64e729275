import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv2d_dilated, sin
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 16, kernel_size=3, stride=1, padding=2, dilation=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sin(x)
        return x


batch_size = 1003


def get_inputs():
    return [torch.randn(batch_size, 32, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
