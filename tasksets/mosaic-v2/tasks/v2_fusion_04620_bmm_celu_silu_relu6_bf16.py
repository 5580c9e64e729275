import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, celu, silu, relu6
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.celu(x, alpha=1.6)
        x = F.silu(x)
        x = F.relu6(x)
        return x


batch_size = 768


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype), torch.randn(batch_size, 1024, 128, dtype=dtype) / 32]


def get_init_inputs():
    return []
