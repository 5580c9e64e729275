import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: softshrink, hardtanh
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softshrink(x, lambd=0.57)
        x = F.hardtanh(x, min_val=-0.6, max_val=0.6)
        return x


batch_size = 737


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
