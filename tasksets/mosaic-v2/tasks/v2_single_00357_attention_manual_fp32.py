import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (attention): attention manual (fp32).

    Ops: matmul, softmax, matmul
    """

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        s = torch.matmul(q, k.transpose(-1, -2)) * 0.0883883
        x = torch.matmul(torch.softmax(s, dim=-1), v)
        return x


batch_size = 3


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, 128, dtype=dtype), torch.randn(batch_size, 8, 4096, 128, dtype=dtype), torch.randn(batch_size, 8, 4096, 128, dtype=dtype)]


def get_init_inputs():
    return []
