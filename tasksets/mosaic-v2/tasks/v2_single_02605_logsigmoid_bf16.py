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


batch_size = 29127


def get_inputs():
    return [torch.randn(batch_size, 3, 8, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
