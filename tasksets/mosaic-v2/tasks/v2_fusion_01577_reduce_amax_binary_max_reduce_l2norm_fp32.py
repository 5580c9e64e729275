import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: reduce_amax, binary_max, reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.amax(x, dim=(2, 3))
        x = torch.maximum(x, y)
        x = torch.linalg.vector_norm(x, dim=1)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 32, 64, 64, dtype=dtype), torch.randn(batch_size, 32, dtype=dtype)]


def get_init_inputs():
    return []
