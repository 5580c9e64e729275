import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (reduction): reduce_var (fp16).

    Ops: reduce_var
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.var(x, dim=2)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype)]


def get_init_inputs():
    return []
