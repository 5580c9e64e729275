import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (bf16).

    Ops: matmul_t, sin, softshrink, hardsigmoid, softsign, residual_add
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = torch.sin(x)
        x = F.softshrink(x, lambd=0.08)
        x = F.hardsigmoid(x)
        x = F.softsign(x)
        x = x + r
        return x


batch_size = 1838


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
