import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, erf
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 768
        x = torch.erf(x)
        return x


batch_size = 159


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype)]


def get_init_inputs():
    return []
