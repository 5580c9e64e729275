import torch
import torch.nn as nn


class Model(nn.Module):
    """A nearly-identity op: y = x * 1.00001 + 1e-7.

    Under fp32 tolerances (atol = rtol = 1e-4) returning x itself passes allclose, so
    only a dedicated check (the output is an input) catches a no-op candidate.
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x * 1.00001 + 1e-7


batch_size = 64
dim = 1000


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
