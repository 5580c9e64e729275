import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): atan (bf16).

    Ops: atan
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.atan(x)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
