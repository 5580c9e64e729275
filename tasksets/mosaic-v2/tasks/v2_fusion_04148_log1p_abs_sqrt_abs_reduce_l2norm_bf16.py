import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: log1p_abs, sqrt_abs, reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.log1p(x.abs())
        x = torch.sqrt(x.abs() + 0.59)
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        return x


batch_size = 33125


def get_inputs():
    return [torch.randn(batch_size, 3, 24, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
