import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, reduce_l2norm, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 16384) * 0.007812)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.linalg.vector_norm(x, dim=1)
        x = F.hardshrink(x, lambd=0.42)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
