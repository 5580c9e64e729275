import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: reduce_sum, celu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sum(x, dim=(2, 3))
        x = F.celu(x, alpha=1.4)
        return x


batch_size = 768


def get_inputs():
    return [torch.randn(batch_size, 32, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
