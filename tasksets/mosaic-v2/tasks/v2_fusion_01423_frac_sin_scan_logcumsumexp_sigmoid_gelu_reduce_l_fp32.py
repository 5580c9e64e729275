import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: frac_sin, scan_logcumsumexp, sigmoid, gelu, reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(0.5 * x) * x
        x = torch.logcumsumexp(x, dim=2)
        x = torch.sigmoid(x)
        x = F.gelu(x)
        x = torch.linalg.vector_norm(x, dim=2)
        return x


batch_size = 1719


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
