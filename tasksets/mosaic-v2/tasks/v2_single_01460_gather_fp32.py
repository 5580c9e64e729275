import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): gather (fp32).

    Ops: gather
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.gather(x, 1, idx)
        return x


batch_size = 45340


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype), torch.randint(0, 8192, (batch_size, 8192))]


def get_init_inputs():
    return []
