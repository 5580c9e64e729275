import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """kthvalue (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.kthvalue(x, 128, dim=-1).values
        return x


batch_size = 3179


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
