import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """abs -> silu -> elu -> reduce_logsumexp -> cos -> celu (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.abs(x)
        x = F.silu(x)
        x = F.elu(x, alpha=1.69)
        x = torch.logsumexp(x, dim=1)
        x = torch.cos(x)
        x = F.celu(x, alpha=1.06)
        return x


batch_size = 342982


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
