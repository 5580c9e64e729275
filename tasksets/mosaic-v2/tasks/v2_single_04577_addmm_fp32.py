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
        x = torch.addmm(bias, A, B, beta=1.02, alpha=1.49)
        return x


batch_size = 224


def get_inputs():
    return [torch.randn(batch_size * 512, 2048, dtype=dtype), torch.randn(2048, 256, dtype=dtype), torch.randn(256, dtype=dtype)]


def get_init_inputs():
    return []
