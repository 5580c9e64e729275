import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (activation): mish (bf16).

    Ops: mish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.mish(x)
        return x


batch_size = 167472


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
