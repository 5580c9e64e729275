import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_dilated, sigmoid, tanh, log1p_abs
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 128, kernel_size=3, stride=1, padding=2, dilation=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sigmoid(x)
        x = torch.tanh(x)
        x = torch.log1p(x.abs())
        return x


batch_size = 85


def get_inputs():
    return [torch.randn(batch_size, 64, 224, 112, dtype=dtype)]


def get_init_inputs():
    return []
