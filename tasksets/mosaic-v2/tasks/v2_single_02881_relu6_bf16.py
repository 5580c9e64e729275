import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (activation): relu6 (bf16).

    Ops: relu6
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.relu6(x)
        return x


batch_size = 16049


def get_inputs():
    return [torch.randn(batch_size, 8, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
