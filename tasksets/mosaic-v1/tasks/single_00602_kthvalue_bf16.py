import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """kthvalue (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.kthvalue(x, 4096, dim=-1).values
        return x


batch_size = 3991


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
