import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sin, sqrt_abs, sin, log1p_abs, reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        x = torch.sqrt(x.abs() + 0.22)
        x = torch.sin(x)
        x = torch.log1p(x.abs())
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        return x


batch_size = 3113


def get_inputs():
    return [torch.randn(batch_size, 4, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
