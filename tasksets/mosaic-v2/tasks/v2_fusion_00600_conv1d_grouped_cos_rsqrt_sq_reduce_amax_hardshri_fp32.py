import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_grouped, cos, rsqrt_sq, reduce_amax, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 128, kernel_size=5, stride=1, padding=2, groups=8)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.cos(x)
        x = torch.rsqrt(x * x + 1.0)
        x = torch.amax(x, dim=(2,))
        x = F.hardshrink(x, lambd=0.39)
        return x


batch_size = 1521


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
