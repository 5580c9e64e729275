import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sigmoid, softplus
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sigmoid(x)
        x = F.softplus(x, beta=2.3)
        return x


batch_size = 2274


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
