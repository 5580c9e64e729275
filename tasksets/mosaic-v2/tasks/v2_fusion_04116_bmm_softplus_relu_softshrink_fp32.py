import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, softplus, relu, softshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.softplus(x, beta=1.79)
        x = torch.relu(x)
        x = F.softshrink(x, lambd=0.42)
        return x


batch_size = 1507


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype), torch.randn(batch_size, 2048, 64, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
