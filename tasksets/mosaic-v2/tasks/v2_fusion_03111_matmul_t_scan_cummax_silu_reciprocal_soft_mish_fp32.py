import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, scan_cummax, silu, reciprocal_soft, mish
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 512) * 0.04419)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.cummax(x, dim=2).values
        x = F.silu(x)
        x = 1.0 / (1.0 + x.abs())
        x = F.mish(x)
        return x


batch_size = 462


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
