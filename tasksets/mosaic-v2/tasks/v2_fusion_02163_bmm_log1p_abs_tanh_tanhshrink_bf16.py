import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, log1p_abs, tanh, tanhshrink
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.log1p(x.abs())
        x = torch.tanh(x)
        x = F.tanhshrink(x)
        return x


batch_size = 2098


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype), torch.randn(batch_size, 768, 512, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
