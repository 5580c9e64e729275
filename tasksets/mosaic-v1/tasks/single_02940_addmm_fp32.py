import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """addmm (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=0.71, alpha=1.13)
        return x


batch_size = 27


def get_inputs():
    return [torch.randn(batch_size * 2048, 1024, dtype=dtype), torch.randn(1024, 2048, dtype=dtype), torch.randn(2048, dtype=dtype)]


def get_init_inputs():
    return []
