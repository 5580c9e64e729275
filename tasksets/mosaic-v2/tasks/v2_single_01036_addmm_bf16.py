import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (matmul): addmm (bf16).

    Ops: addmm
    """

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=0.57, alpha=0.58)
        return x


batch_size = 26


def get_inputs():
    return [torch.randn(batch_size * 4096, 4096, dtype=dtype), torch.randn(4096, 2048, dtype=dtype), torch.randn(2048, dtype=dtype)]


def get_init_inputs():
    return []
