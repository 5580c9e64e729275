import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv2d, instance_norm, swish_beta, silu, softsign, hardswish
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 128, kernel_size=5, stride=1, padding=2)
        self.inorm = nn.InstanceNorm2d(128, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = self.inorm(x)
        x = x * torch.sigmoid(2.7 * x)
        x = F.silu(x)
        x = F.softsign(x)
        x = F.hardswish(x)
        return x


batch_size = 94


def get_inputs():
    return [torch.randn(batch_size, 32, 256, 128, dtype=dtype)]


def get_init_inputs():
    return []
