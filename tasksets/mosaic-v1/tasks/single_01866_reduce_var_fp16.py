import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """reduce_var (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.var(x, dim=(2, 3, 4))
        return x


batch_size = 23280


def get_inputs():
    return [torch.randn(batch_size, 16, 16, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
