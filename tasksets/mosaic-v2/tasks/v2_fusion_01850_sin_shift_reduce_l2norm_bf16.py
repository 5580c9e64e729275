import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: sin, shift, reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        x = x + 0.51
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        return x


batch_size = 73256


def get_inputs():
    return [torch.randn(batch_size, 4, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
