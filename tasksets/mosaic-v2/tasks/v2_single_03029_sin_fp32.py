import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): sin (fp32).

    Ops: sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        return x


batch_size = 23951


def get_inputs():
    return [torch.randn(batch_size, 32, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
