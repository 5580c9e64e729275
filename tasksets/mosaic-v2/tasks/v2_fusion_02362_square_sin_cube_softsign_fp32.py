import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: square, sin, cube, softsign
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * x
        x = torch.sin(x)
        x = x * x * x
        x = F.softsign(x)
        return x


batch_size = 15739


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
