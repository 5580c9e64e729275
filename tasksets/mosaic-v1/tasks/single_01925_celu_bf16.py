import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """celu (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.celu(x, alpha=1.8)
        return x


batch_size = 16384


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype)]


def get_init_inputs():
    return []
