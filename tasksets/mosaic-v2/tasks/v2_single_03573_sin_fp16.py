import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): sin (fp16).

    Ops: sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, dtype=dtype)]


def get_init_inputs():
    return []
