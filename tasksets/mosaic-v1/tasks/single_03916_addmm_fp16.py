import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """addmm (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.42, alpha=1.28)
        return x


batch_size = 68


def get_inputs():
    return [torch.randn(batch_size * 512, 4096, dtype=dtype), torch.randn(4096, 4096, dtype=dtype), torch.randn(4096, dtype=dtype)]


def get_init_inputs():
    return []
