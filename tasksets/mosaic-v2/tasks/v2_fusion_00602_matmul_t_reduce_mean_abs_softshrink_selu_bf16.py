import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, reduce_mean_abs, softshrink, selu
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 4096) * 0.01562)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.mean(x.abs(), dim=1)
        x = F.softshrink(x, lambd=0.45)
        x = F.selu(x)
        return x


batch_size = 393216


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
