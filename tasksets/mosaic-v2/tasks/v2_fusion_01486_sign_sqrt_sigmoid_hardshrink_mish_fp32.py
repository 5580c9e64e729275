import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sign_sqrt, sigmoid, hardshrink, mish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = torch.sigmoid(x)
        x = F.hardshrink(x, lambd=0.2)
        x = F.mish(x)
        return x


batch_size = 2896


def get_inputs():
    return [torch.randn(batch_size, 4, 8, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
