import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: reduce_l2norm, gelu_tanh, scan_logcumsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.linalg.vector_norm(x, dim=(2,))
        x = F.gelu(x, approximate='tanh')
        x = torch.logcumsumexp(x, dim=1)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 64, 2048, dtype=dtype)]


def get_init_inputs():
    return []
