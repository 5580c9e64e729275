import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: conv1d_depthwise, hardshrink, softshrink, residual_add
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 128, kernel_size=7, stride=1, padding=3, groups=128, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = F.hardshrink(x, lambd=0.32)
        x = F.softshrink(x, lambd=0.29)
        x = x + r
        return x


batch_size = 62


def get_inputs():
    return [torch.randn(batch_size, 128, 16384, dtype=dtype)]


def get_init_inputs():
    return []
