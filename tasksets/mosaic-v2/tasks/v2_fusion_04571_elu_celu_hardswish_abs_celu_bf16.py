import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: elu, celu, hardswish, abs, celu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.elu(x, alpha=1.68)
        x = F.celu(x, alpha=2.76)
        x = F.hardswish(x)
        x = torch.abs(x)
        x = F.celu(x, alpha=1.25)
        return x


batch_size = 5058


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
