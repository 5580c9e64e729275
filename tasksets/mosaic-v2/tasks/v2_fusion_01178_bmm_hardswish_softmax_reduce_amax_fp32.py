import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, hardswish, softmax, reduce_amax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.hardswish(x)
        x = torch.softmax(x, dim=-1)
        x = torch.amax(x, dim=2)
        return x


batch_size = 1760


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype), torch.randn(batch_size, 768, 128, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
