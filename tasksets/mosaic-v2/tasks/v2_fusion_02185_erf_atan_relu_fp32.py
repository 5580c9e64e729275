import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: erf, atan, relu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.erf(x)
        x = torch.atan(x)
        x = torch.relu(x)
        return x


batch_size = 39753


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
