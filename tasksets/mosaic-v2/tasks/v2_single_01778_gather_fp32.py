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


batch_size = 19964


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype), torch.randint(0, 32768, (batch_size, 32768))]


def get_init_inputs():
    return []
