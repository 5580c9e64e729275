import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sign_sqrt, softshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.softshrink(x, lambd=0.25)
        return x


batch_size = 2708


def get_inputs():
    return [torch.randn(batch_size, 8, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
