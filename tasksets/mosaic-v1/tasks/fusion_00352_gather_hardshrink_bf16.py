import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """gather -> hardshrink (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.gather(x, 1, idx)
        x = F.hardshrink(x, lambd=0.05)
        return x


batch_size = 698390


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype), torch.randint(0, 2048, (batch_size, 1024))]


def get_init_inputs():
    return []
