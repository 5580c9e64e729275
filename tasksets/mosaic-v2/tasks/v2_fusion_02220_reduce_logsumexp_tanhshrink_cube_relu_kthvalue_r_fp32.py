import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: reduce_logsumexp, tanhshrink, cube, relu, kthvalue, relu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.logsumexp(x, dim=(2,))
        x = F.tanhshrink(x)
        x = x * x * x
        x = torch.relu(x)
        x = torch.kthvalue(x, 8, dim=-1).values
        x = torch.relu(x)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 32, 16384, dtype=dtype)]


def get_init_inputs():
    return []
