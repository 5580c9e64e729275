import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sin, reduce_l2norm, sign_sqrt
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        x = torch.linalg.vector_norm(x, dim=1)
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 98304


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
