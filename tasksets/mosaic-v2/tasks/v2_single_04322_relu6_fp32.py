import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (activation): relu6 (fp32).

    Ops: relu6
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.relu6(x)
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
