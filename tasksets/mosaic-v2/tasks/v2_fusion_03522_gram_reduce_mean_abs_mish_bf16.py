import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: gram, reduce_mean_abs, mish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 256
        x = torch.mean(x.abs(), dim=1)
        x = F.mish(x)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
