import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: gram, reduce_logsumexp, cos, gather
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.matmul(x, x.transpose(-1, -2)) / 256
        x = torch.logsumexp(x, dim=2)
        x = torch.cos(x)
        x = torch.gather(x, 1, idx)
        return x


batch_size = 1099


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype), torch.randint(0, 1024, (batch_size, 1024))]


def get_init_inputs():
    return []
