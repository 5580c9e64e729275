import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, relu6, hardshrink, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = F.relu6(x)
        x = F.hardshrink(x, lambd=0.42)
        x = torch.mean(x.abs(), dim=2)
        return x


batch_size = 1320


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
