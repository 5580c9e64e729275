import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: masked_fill, hardsigmoid, scale, abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.masked_fill(x < 0.11, 0.0)
        x = F.hardsigmoid(x)
        x = x * 0.9
        x = torch.abs(x)
        return x


batch_size = 127


def get_inputs():
    return [torch.randn(batch_size, 128, 16384, dtype=dtype)]


def get_init_inputs():
    return []
