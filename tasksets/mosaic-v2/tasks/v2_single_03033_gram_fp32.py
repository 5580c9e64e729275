import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (matmul): gram (fp32).

    Ops: gram
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 256
        return x


batch_size = 6415


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
