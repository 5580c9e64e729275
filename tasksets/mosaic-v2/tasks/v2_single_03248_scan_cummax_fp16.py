import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (scan): scan_cummax (fp16).

    Ops: scan_cummax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.cummax(x, dim=2).values
        return x


batch_size = 3261


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
