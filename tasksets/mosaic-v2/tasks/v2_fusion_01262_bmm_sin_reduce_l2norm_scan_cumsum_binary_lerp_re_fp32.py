import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, sin, reduce_l2norm, scan_cumsum, binary_lerp, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w, y):
        x = torch.bmm(x, w)
        x = torch.sin(x)
        x = torch.linalg.vector_norm(x, dim=2)
        x = torch.cumsum(x, dim=1)
        x = torch.lerp(x, y, 0.3)
        x = torch.logsumexp(x, dim=1)
        return x


batch_size = 1227


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype), torch.randn(batch_size, 2048, 128, dtype=dtype) / 45.25, torch.randn(batch_size, 128, dtype=dtype)]


def get_init_inputs():
    return []
