import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, atan, softmin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.atan(x)
        x = F.softmin(x, dim=-1)
        return x


batch_size = 301


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype), torch.randn(batch_size, 768, 256, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
