import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv1d_grouped -> rsqrt_sq -> reduce_var -> clamp (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 64, kernel_size=5, stride=1, padding=2, groups=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.rsqrt(x * x + 1.0)
        x = torch.var(x, dim=(2,))
        x = torch.clamp(x, min=-1.53, max=1.53)
        return x


batch_size = 2110


def get_inputs():
    return [torch.randn(batch_size, 32, 4096, dtype=dtype)]


def get_init_inputs():
    return []
