import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, relu, reciprocal_soft, reduce_var
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 768
        x = torch.relu(x)
        x = 1.0 / (1.0 + x.abs())
        x = torch.var(x, dim=1)
        return x


batch_size = 55


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype)]


def get_init_inputs():
    return []
