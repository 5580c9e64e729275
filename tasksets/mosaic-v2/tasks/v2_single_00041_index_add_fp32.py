import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): index add (fp32).

    Ops: index_add
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, index, src):
        x = x.index_add(0, index, src)
        return x


batch_size = 1478


def get_inputs():
    return [torch.randn(4096, 1024, dtype=dtype), torch.randint(0, 4096, (batch_size * 1024,)), torch.randn(batch_size * 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
