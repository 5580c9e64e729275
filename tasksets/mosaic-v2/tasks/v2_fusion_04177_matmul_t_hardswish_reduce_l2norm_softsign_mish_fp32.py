import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, hardswish, reduce_l2norm, softsign, mish
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.hardswish(x)
        x = torch.linalg.vector_norm(x, dim=2)
        x = F.softsign(x)
        x = F.mish(x)
        return x


batch_size = 484


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
