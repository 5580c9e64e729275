import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (reduction): reduce_logsumexp (bf16).

    Ops: reduce_logsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.logsumexp(x, dim=1)
        return x


batch_size = 37374


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, dtype=dtype)]


def get_init_inputs():
    return []
