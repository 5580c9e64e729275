import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: hardshrink, cube, reduce_amax, relu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardshrink(x, lambd=0.45)
        x = x * x * x
        x = torch.amax(x, dim=1)
        x = torch.relu(x)
        return x


batch_size = 418


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
