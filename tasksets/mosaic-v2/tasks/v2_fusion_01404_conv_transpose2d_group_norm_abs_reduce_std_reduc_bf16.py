import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose2d, group_norm, abs, reduce_std, reduce_amax, shift
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 16, kernel_size=4, stride=2, padding=1)
        self.gn = nn.GroupNorm(4, 16)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = self.gn(x)
        x = torch.abs(x)
        x = torch.std(x, dim=1)
        x = torch.amax(x, dim=2)
        x = x + 0.05
        return x


batch_size = 7078


def get_inputs():
    return [torch.randn(batch_size, 16, 32, 16, dtype=dtype)]


def get_init_inputs():
    return []
