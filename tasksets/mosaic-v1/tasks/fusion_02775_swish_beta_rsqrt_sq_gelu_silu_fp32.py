import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """swish_beta -> rsqrt_sq -> gelu -> silu (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * torch.sigmoid(2.75 * x)
        x = torch.rsqrt(x * x + 1.0)
        x = F.gelu(x)
        x = F.silu(x)
        return x


batch_size = 154


def get_inputs():
    return [torch.randn(batch_size, 32, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
