import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: masked_fill, clamp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.masked_fill(x < -0.15, 0.0)
        x = torch.clamp(x, min=-2.45, max=2.45)
        return x


batch_size = 1024


def get_inputs():
    return [torch.randn(batch_size, 8, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
