import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """addmm (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.49, alpha=1.23)
        return x


batch_size = 384


def get_inputs():
    return [torch.randn(batch_size * 4096, 1024, dtype=dtype), torch.randn(1024, 256, dtype=dtype), torch.randn(256, dtype=dtype)]


def get_init_inputs():
    return []
