import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (activation): celu (fp32).

    Ops: celu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.celu(x, alpha=1.54)
        return x


batch_size = 682


def get_inputs():
    return [torch.randn(batch_size, 32, 16, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
