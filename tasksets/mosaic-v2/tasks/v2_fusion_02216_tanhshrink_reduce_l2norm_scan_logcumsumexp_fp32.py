import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: tanhshrink, reduce_l2norm, scan_logcumsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.tanhshrink(x)
        x = torch.linalg.vector_norm(x, dim=1)
        x = torch.logcumsumexp(x, dim=1)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 32, 2048, dtype=dtype)]


def get_init_inputs():
    return []
