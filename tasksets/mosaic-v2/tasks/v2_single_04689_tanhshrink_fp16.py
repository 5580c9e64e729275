import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (activation): tanhshrink (fp16).

    Ops: tanhshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.tanhshrink(x)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
