import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (matmul): addmm (fp32).

    Ops: addmm
    """

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.29, alpha=1.1)
        return x


batch_size = 73


def get_inputs():
    return [torch.randn(batch_size * 1024, 1024, dtype=dtype), torch.randn(1024, 2048, dtype=dtype), torch.randn(2048, dtype=dtype)]


def get_init_inputs():
    return []
