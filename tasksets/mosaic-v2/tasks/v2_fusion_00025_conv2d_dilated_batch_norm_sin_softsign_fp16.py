import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv2d_dilated, batch_norm, sin, softsign
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 16, kernel_size=5, stride=1, padding=4, dilation=2)
        self.bn = nn.BatchNorm2d(16)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = torch.sin(x)
        x = F.softsign(x)
        return x


batch_size = 47


def get_inputs():
    return [torch.randn(batch_size, 128, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
