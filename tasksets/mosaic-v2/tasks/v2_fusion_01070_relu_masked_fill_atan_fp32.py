import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: relu, masked_fill, atan
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.relu(x)
        x = x.masked_fill(x < 0.21, 0.0)
        x = torch.atan(x)
        return x


batch_size = 4665


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype)]


def get_init_inputs():
    return []
