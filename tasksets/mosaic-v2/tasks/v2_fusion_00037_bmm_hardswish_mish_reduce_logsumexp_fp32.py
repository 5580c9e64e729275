import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, hardswish, mish, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.hardswish(x)
        x = F.mish(x)
        x = torch.logsumexp(x, dim=2)
        return x


batch_size = 455


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype), torch.randn(batch_size, 768, 512, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
