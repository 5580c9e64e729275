import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, hardswish, reduce_l2norm, cube
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.hardswish(x)
        x = torch.linalg.vector_norm(x, dim=2)
        x = x * x * x
        return x


batch_size = 70


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype), torch.randn(batch_size, 2048, 512, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
