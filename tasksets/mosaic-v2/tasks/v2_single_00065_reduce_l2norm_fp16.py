import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (reduction): reduce_l2norm (fp16).

    Ops: reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.linalg.vector_norm(x, dim=(2, 3))
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 16, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
