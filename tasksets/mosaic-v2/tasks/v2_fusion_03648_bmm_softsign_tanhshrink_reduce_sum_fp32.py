import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, softsign, tanhshrink, reduce_sum
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.softsign(x)
        x = F.tanhshrink(x)
        x = torch.sum(x, dim=1)
        return x


batch_size = 205


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype), torch.randn(batch_size, 512, 256, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
