import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (reduction): reduce_std (fp32).

    Ops: reduce_std
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.std(x, dim=1)
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
