import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, reduce_l2norm, gelu, softsign
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.linalg.vector_norm(x, dim=1)
        x = F.gelu(x)
        x = F.softsign(x)
        return x


batch_size = 488


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype), torch.randn(batch_size, 2048, 256, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
