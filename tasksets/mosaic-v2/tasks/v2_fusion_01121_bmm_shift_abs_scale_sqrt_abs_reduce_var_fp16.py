import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: bmm, shift, abs, scale, sqrt_abs, reduce_var
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = x + 0.15
        x = torch.abs(x)
        x = x * 1.57
        x = torch.sqrt(x.abs() + 0.52)
        x = torch.var(x, dim=1)
        return x


batch_size = 2843


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype), torch.randn(batch_size, 2048, 64, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
