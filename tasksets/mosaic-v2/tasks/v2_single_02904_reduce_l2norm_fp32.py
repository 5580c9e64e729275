import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (reduction): reduce_l2norm (fp32).

    Ops: reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        return x


batch_size = 1365


def get_inputs():
    return [torch.randn(batch_size, 8, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
