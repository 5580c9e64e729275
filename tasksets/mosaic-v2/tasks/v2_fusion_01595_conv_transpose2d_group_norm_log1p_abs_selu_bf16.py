import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose2d, group_norm, log1p_abs, selu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 32, kernel_size=3, stride=1, padding=1)
        self.gn = nn.GroupNorm(2, 32)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = self.gn(x)
        x = torch.log1p(x.abs())
        x = F.selu(x)
        return x


batch_size = 88


def get_inputs():
    return [torch.randn(batch_size, 128, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
