import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: bmm, reduce_mean_abs, reduce_std
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.mean(x.abs(), dim=2)
        x = torch.std(x, dim=1)
        return x


batch_size = 16384


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype), torch.randn(batch_size, 768, 64, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
