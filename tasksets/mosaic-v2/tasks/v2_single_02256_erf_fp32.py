import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): erf (fp32).

    Ops: erf
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.erf(x)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
