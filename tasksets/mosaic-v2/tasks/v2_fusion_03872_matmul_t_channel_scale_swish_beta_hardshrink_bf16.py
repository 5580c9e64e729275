import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, channel_scale, swish_beta, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 512) * 0.04419)
        self.scale = nn.Parameter(torch.rand(2048,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = x * self.scale
        x = x * torch.sigmoid(2.12 * x)
        x = F.hardshrink(x, lambd=0.1)
        return x


batch_size = 385


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype)]


def get_init_inputs():
    return []
