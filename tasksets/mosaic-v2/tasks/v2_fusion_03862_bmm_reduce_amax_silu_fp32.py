import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, reduce_amax, silu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.amax(x, dim=1)
        x = F.silu(x)
        return x


batch_size = 2269


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype), torch.randn(batch_size, 1024, 256, dtype=dtype) / 32]


def get_init_inputs():
    return []
