import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: erf, tanh, softplus, leaky_relu, abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.erf(x)
        x = torch.tanh(x)
        x = F.softplus(x, beta=2.72)
        x = F.leaky_relu(x, negative_slope=0.4)
        x = torch.abs(x)
        return x


batch_size = 19034


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
