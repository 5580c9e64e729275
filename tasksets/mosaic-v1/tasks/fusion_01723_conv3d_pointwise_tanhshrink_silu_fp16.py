import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv3d_pointwise -> tanhshrink -> silu (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 128, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.tanhshrink(x)
        x = F.silu(x)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 4, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
