import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, reduce_amax, log1p_abs
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.amax(x, dim=1)
        x = torch.log1p(x.abs())
        return x


batch_size = 25


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype)]


def get_init_inputs():
    return []
