import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv2d -> swish_beta -> scale -> rsqrt_sq (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * torch.sigmoid(2.74 * x)
        x = x * 2.79
        x = torch.rsqrt(x * x + 1.0)
        return x


batch_size = 102


def get_inputs():
    return [torch.randn(batch_size, 8, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
