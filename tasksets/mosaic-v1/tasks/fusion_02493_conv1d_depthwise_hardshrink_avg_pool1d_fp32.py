import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv1d_depthwise -> hardshrink -> avg_pool1d (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 32, kernel_size=3, stride=1, padding=1, groups=32)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardshrink(x, lambd=0.32)
        x = F.avg_pool1d(x, kernel_size=3, stride=1, padding=1)
        return x


batch_size = 373


def get_inputs():
    return [torch.randn(batch_size, 32, 16384, dtype=dtype)]


def get_init_inputs():
    return []
