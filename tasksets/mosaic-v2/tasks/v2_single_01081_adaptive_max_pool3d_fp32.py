import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (pooling): adaptive_max_pool3d (fp32).

    Ops: adaptive_max_pool3d
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.adaptive_max_pool3d(x, 4)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 4, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
