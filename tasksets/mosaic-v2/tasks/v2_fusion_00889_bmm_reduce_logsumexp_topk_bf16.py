import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, reduce_logsumexp, topk
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.logsumexp(x, dim=2)
        x = torch.topk(x, 4, dim=-1).values
        return x


batch_size = 5267


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype), torch.randn(batch_size, 256, 256, dtype=dtype) / 16]


def get_init_inputs():
    return []
