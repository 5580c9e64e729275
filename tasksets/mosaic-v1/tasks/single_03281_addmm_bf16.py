import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """addmm (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.39, alpha=1.23)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size * 1024, 256, dtype=dtype), torch.randn(256, 512, dtype=dtype), torch.randn(512, dtype=dtype)]


def get_init_inputs():
    return []
