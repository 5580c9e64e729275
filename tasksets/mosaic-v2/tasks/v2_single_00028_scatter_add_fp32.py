import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): scatter_add (fp32).

    Ops: scatter_add
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.zeros(x.shape[0], 8192, dtype=x.dtype, device=x.device).scatter_add_(1, idx, x)
        return x


batch_size = 35128


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype), torch.randint(0, 8192, (batch_size, 8192))]


def get_init_inputs():
    return []
