import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_depthwise, reciprocal_soft, elu, channel_scale, softshrink
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 8, kernel_size=5, stride=1, padding=2, groups=8)
        self.scale = nn.Parameter(torch.rand(8, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = 1.0 / (1.0 + x.abs())
        x = F.elu(x, alpha=1.94)
        x = x * self.scale
        x = F.softshrink(x, lambd=0.42)
        return x


batch_size = 9677


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, dtype=dtype)]


def get_init_inputs():
    return []
