import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose2d, hardtanh, atan, group_norm, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 64, kernel_size=4, stride=2, padding=1)
        self.gn = nn.GroupNorm(32, 64)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardtanh(x, min_val=-1.38, max_val=1.38)
        x = torch.atan(x)
        x = self.gn(x)
        x = torch.mean(x.abs(), dim=(2, 3))
        return x


batch_size = 2222


def get_inputs():
    return [torch.randn(batch_size, 128, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
