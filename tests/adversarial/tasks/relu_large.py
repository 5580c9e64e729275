import torch
import torch.nn as nn


class Model(nn.Module):
    """y = relu(x), with an output of 36 MiB: past glibc's 32 MiB mmap threshold, where a fresh
    allocation is zero pages"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


batch_size = 9
dim = 1 << 20


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
