import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (sort): median (fp32).

    Ops: median
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.median(x, dim=-1).values
        return x


batch_size = 206


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
