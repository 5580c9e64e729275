import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: conv1d_grouped, hardswish, residual_add
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 256, kernel_size=3, stride=1, padding=1, groups=8)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = F.hardswish(x)
        x = x + r
        return x


batch_size = 628


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
