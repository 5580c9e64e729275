import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: reduce_amin, elu, binary_addcmul
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.amin(x, dim=1)
        x = F.elu(x, alpha=1.14)
        x = torch.addcmul(x, x, y, value=0.5)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 16, 16384, dtype=dtype), torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
