import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d, tanhshrink, reciprocal_soft
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.tanhshrink(x)
        x = 1.0 / (1.0 + x.abs())
        return x


batch_size = 117


def get_inputs():
    return [torch.randn(batch_size, 3, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
