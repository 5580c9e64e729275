import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sin, reduce_std
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        x = torch.std(x, dim=1)
        return x


batch_size = 128685


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
