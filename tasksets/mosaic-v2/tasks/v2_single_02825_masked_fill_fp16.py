import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (indexing): masked_fill (fp16).

    Ops: masked_fill
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.masked_fill(x < -0.47, 0.0)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
