import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, mish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.mish(x)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype), torch.randn(batch_size, 512, 64, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
