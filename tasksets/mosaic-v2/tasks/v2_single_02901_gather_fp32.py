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


batch_size = 294664


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype), torch.randint(0, 1024, (batch_size, 2048))]


def get_init_inputs():
    return []
