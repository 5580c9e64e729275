import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, sort, log_softmax, scan_cummax
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 32768) * 0.005524)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.sort(x, dim=-1, descending=True).values
        x = torch.log_softmax(x, dim=-1)
        x = torch.cummax(x, dim=1).values
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
