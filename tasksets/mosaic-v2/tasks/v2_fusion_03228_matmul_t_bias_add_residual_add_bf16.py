import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (bf16).

    Ops: matmul_t, bias_add, residual_add
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 8192) * 0.01105)
        self.bias = nn.Parameter(torch.randn(1024,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = x + self.bias
        x = x + r
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
