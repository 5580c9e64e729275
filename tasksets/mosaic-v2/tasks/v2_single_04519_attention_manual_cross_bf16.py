import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (attention): attention manual cross (bf16).

    Ops: matmul, softmax, matmul
    """

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        s = torch.matmul(q, k.transpose(-1, -2)) * 0.176777
        x = torch.matmul(torch.softmax(s, dim=-1), v)
        return x


batch_size = 229


def get_inputs():
    return [torch.randn(batch_size, 4, 256, 32, dtype=dtype), torch.randn(batch_size, 4, 4096, 32, dtype=dtype), torch.randn(batch_size, 4, 4096, 32, dtype=dtype)]


def get_init_inputs():
    return []
