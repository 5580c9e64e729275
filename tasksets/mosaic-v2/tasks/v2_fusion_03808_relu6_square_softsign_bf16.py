import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: relu6, square, softsign
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.relu6(x)
        x = x * x
        x = F.softsign(x)
        return x


batch_size = 2958


def get_inputs():
    return [torch.randn(batch_size, 128, 56, 28, dtype=dtype)]


def get_init_inputs():
    return []
