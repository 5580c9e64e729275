import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): frac_sin (bf16).

    Ops: frac_sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(1.4 * x) * x
        return x


batch_size = 11662


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
