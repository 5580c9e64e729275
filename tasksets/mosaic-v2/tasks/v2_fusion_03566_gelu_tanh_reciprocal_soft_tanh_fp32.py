import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gelu_tanh, reciprocal_soft, tanh
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.gelu(x, approximate='tanh')
        x = 1.0 / (1.0 + x.abs())
        x = torch.tanh(x)
        return x


batch_size = 3822


def get_inputs():
    return [torch.randn(batch_size, 128, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
