import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, frac_sin, celu, reduce_amax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.sin(1.76 * x) * x
        x = F.celu(x, alpha=1.77)
        x = torch.amax(x, dim=2)
        return x


batch_size = 465


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype), torch.randn(batch_size, 1024, 512, dtype=dtype) / 32]


def get_init_inputs():
    return []
