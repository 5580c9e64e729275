import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (matmul): addmm (fp16).

    Ops: addmm
    """

    def __init__(self):
        super().__init__()

    def forward(self, A, B, bias):
        x = torch.addmm(bias, A, B, beta=1.11, alpha=1.19)
        return x


batch_size = 597


def get_inputs():
    return [torch.randn(batch_size * 2048, 1024, dtype=dtype), torch.randn(1024, 512, dtype=dtype), torch.randn(512, dtype=dtype)]


def get_init_inputs():
    return []
