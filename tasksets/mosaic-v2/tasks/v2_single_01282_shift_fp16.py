import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): shift (fp16).

    Ops: shift
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x + 0.56
        return x


batch_size = 1572864


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
