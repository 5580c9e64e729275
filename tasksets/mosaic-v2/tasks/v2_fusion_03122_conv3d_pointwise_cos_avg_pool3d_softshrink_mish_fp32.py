import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_pointwise, cos, avg_pool3d, softshrink, mish
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 64, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.cos(x)
        x = F.avg_pool3d(x, kernel_size=3, stride=2, padding=1)
        x = F.softshrink(x, lambd=0.19)
        x = F.mish(x)
        return x


batch_size = 310


def get_inputs():
    return [torch.randn(batch_size, 8, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
