import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d, batch_norm, tanh
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 32, kernel_size=5, stride=1, padding=2, bias=False)
        self.bn = nn.BatchNorm2d(32)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = torch.tanh(x)
        return x


batch_size = 13653


def get_inputs():
    return [torch.randn(batch_size, 8, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
