import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv3d_strided, clamp, softsign, silu, reduce_std, abs
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 64, kernel_size=3, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.clamp(x, min=-1.6, max=1.6)
        x = F.softsign(x)
        x = F.silu(x)
        x = torch.std(x, dim=(2, 3, 4))
        x = torch.abs(x)
        return x


batch_size = 3848


def get_inputs():
    return [torch.randn(batch_size, 32, 16, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
