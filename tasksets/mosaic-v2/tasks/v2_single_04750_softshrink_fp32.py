import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (activation): softshrink (fp32).

    Ops: softshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softshrink(x, lambd=0.46)
        return x


batch_size = 135


def get_inputs():
    return [torch.randn(batch_size, 64, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
