import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (activation): celu (bf16).

    Ops: celu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.celu(x, alpha=2.87)
        return x


batch_size = 8192


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
