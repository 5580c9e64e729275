import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (reduction): reduce_var (fp32).

    Ops: reduce_var
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.var(x, dim=2)
        return x


batch_size = 8192


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype)]


def get_init_inputs():
    return []
