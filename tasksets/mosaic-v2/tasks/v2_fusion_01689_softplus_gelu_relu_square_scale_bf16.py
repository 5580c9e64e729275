import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: softplus, gelu, relu, square, scale
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.softplus(x, beta=2.03)
        x = F.gelu(x)
        x = torch.relu(x)
        x = x * x
        x = x * 0.87
        return x


batch_size = 2203


def get_inputs():
    return [torch.randn(batch_size, 8, 16384, dtype=dtype)]


def get_init_inputs():
    return []
