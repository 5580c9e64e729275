import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """addmm (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.13, alpha=1.4)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size * 512, 2048, dtype=dtype), torch.randn(2048, 256, dtype=dtype), torch.randn(256, dtype=dtype)]


def get_init_inputs():
    return []
