import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: reduce_mean_abs, atan, sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.mean(x.abs(), dim=1)
        x = torch.atan(x)
        x = torch.sin(x)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 16, 1024, dtype=dtype)]


def get_init_inputs():
    return []
