import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (pooling): adaptive_avg_pool1d (fp32).

    Ops: adaptive_avg_pool1d
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.adaptive_avg_pool1d(x, 2)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
