import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): clamp (fp32).

    Ops: clamp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.clamp(x, min=-0.53, max=0.53)
        return x


batch_size = 16049


def get_inputs():
    return [torch.randn(batch_size, 32, 56, 28, dtype=dtype)]


def get_init_inputs():
    return []
