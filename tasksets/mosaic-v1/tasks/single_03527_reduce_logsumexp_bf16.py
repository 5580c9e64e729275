import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """reduce_logsumexp (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.logsumexp(x, dim=(2, 3))
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
