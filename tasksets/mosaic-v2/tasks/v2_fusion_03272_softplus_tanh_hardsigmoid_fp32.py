import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: softplus, tanh, hardsigmoid
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softplus(x, beta=2.67)
        x = torch.tanh(x)
        x = F.hardsigmoid(x)
        return x


batch_size = 2359


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
