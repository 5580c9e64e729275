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
        x = torch.addmm(bias, A, B, beta=0.78, alpha=1.17)
        return x


batch_size = 29


def get_inputs():
    return [torch.randn(batch_size * 512, 1024, dtype=dtype), torch.randn(1024, 4096, dtype=dtype), torch.randn(4096, dtype=dtype)]


def get_init_inputs():
    return []
