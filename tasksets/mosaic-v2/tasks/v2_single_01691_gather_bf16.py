import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (indexing): gather (bf16).

    Ops: gather
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.gather(x, 1, idx)
        return x


batch_size = 24471


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype), torch.randint(0, 16384, (batch_size, 16384))]


def get_init_inputs():
    return []
