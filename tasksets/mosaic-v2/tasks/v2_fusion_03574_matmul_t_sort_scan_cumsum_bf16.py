import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, sort, scan_cumsum
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 2048) * 0.0221)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.sort(x, dim=-1).values
        x = torch.cumsum(x, dim=2)
        return x


batch_size = 45


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype)]


def get_init_inputs():
    return []
