import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (activation): logsigmoid (bf16).

    Ops: logsigmoid
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.logsigmoid(x)
        return x


batch_size = 1572864


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
