import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """l2_normalize (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.normalize(x, p=2.0, dim=-1)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
