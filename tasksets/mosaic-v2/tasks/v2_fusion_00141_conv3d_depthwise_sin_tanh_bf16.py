import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv3d_depthwise, sin, tanh
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 8, kernel_size=3, stride=1, padding=1, groups=4)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sin(x)
        x = torch.tanh(x)
        return x


batch_size = 3934


def get_inputs():
    return [torch.randn(batch_size, 4, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
