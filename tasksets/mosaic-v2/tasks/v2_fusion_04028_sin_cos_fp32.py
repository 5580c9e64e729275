import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sin, cos
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        x = torch.cos(x)
        return x


batch_size = 4012


def get_inputs():
    return [torch.randn(batch_size, 32, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
