import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv3d_grouped -> frac_sin -> log1p_abs -> shift -> cube -> reduce_amax (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 128, kernel_size=3, stride=1, padding=1, groups=4, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sin(2.64 * x) * x
        x = torch.log1p(x.abs())
        x = x + 0.08
        x = x * x * x
        x = torch.amax(x, dim=(2, 3, 4))
        return x


batch_size = 72


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
