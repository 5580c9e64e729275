import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, scan_cumprod, cos, hardshrink, cube
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 4096) * 0.01562)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.cumprod(1.0 + 0.01 * x, dim=1)
        x = torch.cos(x)
        x = F.hardshrink(x, lambd=0.06)
        x = x * x * x
        return x


batch_size = 186194


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
