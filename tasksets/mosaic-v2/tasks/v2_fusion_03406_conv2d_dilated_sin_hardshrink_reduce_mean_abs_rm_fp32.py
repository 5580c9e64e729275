import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_dilated, sin, hardshrink, reduce_mean_abs, rms_norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 128, kernel_size=3, stride=1, padding=2, dilation=2, bias=False)
        self.rms_weight = nn.Parameter(torch.ones(128) + 0.1 * torch.randn(128))
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sin(x)
        x = F.hardshrink(x, lambd=0.47)
        x = torch.mean(x.abs(), dim=1)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        return x


batch_size = 33


def get_inputs():
    return [torch.randn(batch_size, 128, 256, 128, dtype=dtype)]


def get_init_inputs():
    return []
