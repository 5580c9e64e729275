import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): cos (fp16).

    Ops: cos
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.cos(x)
        return x


batch_size = 32099


def get_inputs():
    return [torch.randn(batch_size, 16, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
