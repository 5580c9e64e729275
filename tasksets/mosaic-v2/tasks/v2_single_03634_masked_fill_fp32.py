import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): masked_fill (fp32).

    Ops: masked_fill
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.masked_fill(x < 0.29, 0.0)
        return x


batch_size = 5045


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
