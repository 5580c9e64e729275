import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, reduce_logsumexp, reduce_std
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 2048) * 0.0221)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.logsumexp(x, dim=2)
        x = torch.std(x, dim=1)
        return x


batch_size = 1425


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
