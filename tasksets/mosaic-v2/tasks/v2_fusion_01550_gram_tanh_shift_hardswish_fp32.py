import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, tanh, shift, hardswish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 1024
        x = torch.tanh(x)
        x = x + 0.36
        x = F.hardswish(x)
        return x


batch_size = 165


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype)]


def get_init_inputs():
    return []
