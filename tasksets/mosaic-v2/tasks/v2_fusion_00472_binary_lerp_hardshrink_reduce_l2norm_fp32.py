import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: binary_lerp, hardshrink, reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.lerp(x, y, 0.3)
        x = F.hardshrink(x, lambd=0.17)
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        return x


batch_size = 57646


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 16, 16, dtype=dtype), torch.randn(batch_size, 3, 16, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
