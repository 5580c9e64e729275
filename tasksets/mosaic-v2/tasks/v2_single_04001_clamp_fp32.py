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
        x = torch.clamp(x, min=-0.62, max=0.62)
        return x


batch_size = 1365


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
