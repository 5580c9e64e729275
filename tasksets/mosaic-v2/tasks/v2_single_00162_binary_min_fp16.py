import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): binary_min (fp16).

    Ops: binary_min
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.minimum(x, y)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 16, 8, 32, 32, dtype=dtype), torch.randn(batch_size, 16, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
