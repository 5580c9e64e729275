import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (sort): sort (fp32).

    Ops: sort
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sort(x, dim=-1).values
        return x


batch_size = 1767


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
