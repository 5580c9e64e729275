import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: batch_norm, sin, reciprocal_soft
    """

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(16)
        self.to(dtype)

    def forward(self, x):
        x = self.bn(x)
        x = torch.sin(x)
        x = 1.0 / (1.0 + x.abs())
        return x


batch_size = 1004


def get_inputs():
    return [torch.randn(batch_size, 16, 16384, dtype=dtype)]


def get_init_inputs():
    return []
