import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv3d_depthwise, sin, sqrt_abs, relu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 3, kernel_size=3, stride=1, padding=1, groups=3)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sin(x)
        x = torch.sqrt(x.abs() + 0.18)
        x = torch.relu(x)
        return x


batch_size = 1148


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
