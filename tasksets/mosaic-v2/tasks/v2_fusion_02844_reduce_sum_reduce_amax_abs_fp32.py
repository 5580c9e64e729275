import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: reduce_sum, reduce_amax, abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sum(x, dim=(2, 3))
        x = torch.amax(x, dim=1)
        x = torch.abs(x)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
