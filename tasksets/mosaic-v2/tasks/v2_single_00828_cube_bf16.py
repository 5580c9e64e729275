import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): cube (bf16).

    Ops: cube
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * x * x
        return x


batch_size = 43633


def get_inputs():
    return [torch.randn(batch_size, 3, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
