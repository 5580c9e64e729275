import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """adaptive_max_pool1d (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.adaptive_max_pool1d(x, 4)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 16, 2048, dtype=dtype)]


def get_init_inputs():
    return []
