import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """median -> logsigmoid (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.median(x, dim=-1).values
        x = F.logsigmoid(x)
        return x


batch_size = 39022


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
