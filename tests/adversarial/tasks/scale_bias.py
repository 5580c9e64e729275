import torch
import torch.nn as nn


class Model(nn.Module):
    """y = x * weight + bias, with per-column parameters."""

    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim))
        self.bias = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        return x * self.weight + self.bias


batch_size = 33
dim = 257


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
