import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_grouped, atan, mish, reduce_mean_abs, tanhshrink, celu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 16, kernel_size=5, stride=1, padding=2, groups=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.atan(x)
        x = F.mish(x)
        x = torch.mean(x.abs(), dim=(2,))
        x = F.tanhshrink(x)
        x = F.celu(x, alpha=2.0)
        return x


batch_size = 1505


def get_inputs():
    return [torch.randn(batch_size, 32, 16384, dtype=dtype)]


def get_init_inputs():
    return []
