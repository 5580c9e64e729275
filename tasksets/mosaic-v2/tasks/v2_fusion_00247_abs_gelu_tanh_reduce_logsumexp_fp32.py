import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: abs, gelu_tanh, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.abs(x)
        x = F.gelu(x, approximate='tanh')
        x = torch.logsumexp(x, dim=1)
        return x


batch_size = 277


def get_inputs():
    return [torch.randn(batch_size, 128, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
