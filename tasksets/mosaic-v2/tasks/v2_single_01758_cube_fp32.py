import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): cube (fp32).

    Ops: cube
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * x * x
        return x


batch_size = 764


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
