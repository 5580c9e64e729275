import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """frac_sin (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(0.57 * x) * x
        return x


batch_size = 24334


def get_inputs():
    return [torch.randn(batch_size, 64, 1024, dtype=dtype)]


def get_init_inputs():
    return []
