import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv3d_pointwise -> mish -> bias_add (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 128, kernel_size=1, stride=1, padding=0)
        self.bias = nn.Parameter(torch.randn(128, 1, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.mish(x)
        x = x + self.bias
        return x


batch_size = 571


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
