import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """l2_normalize (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.normalize(x, p=2.0, dim=-1)
        return x


batch_size = 384


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype)]


def get_init_inputs():
    return []
