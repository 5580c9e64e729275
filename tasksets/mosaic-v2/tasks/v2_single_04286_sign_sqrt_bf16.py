import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (elementwise): sign_sqrt (bf16).

    Ops: sign_sqrt
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 290456


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
