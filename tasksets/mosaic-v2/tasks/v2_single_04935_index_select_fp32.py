import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): index_select (fp32).

    Ops: index_select
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.index_select(x, 1, idx)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype), torch.randint(0, 16384, (16384,), dtype=torch.long)]


def get_init_inputs():
    return []
