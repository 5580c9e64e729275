import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (indexing): index_select (bf16).

    Ops: index_select
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.index_select(x, 2, idx)
        return x


batch_size = 2048


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype), torch.randint(0, 768, (384,), dtype=torch.long)]


def get_init_inputs():
    return []
