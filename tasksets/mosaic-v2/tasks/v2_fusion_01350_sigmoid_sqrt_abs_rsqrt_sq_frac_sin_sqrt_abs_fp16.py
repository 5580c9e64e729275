import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: sigmoid, sqrt_abs, rsqrt_sq, frac_sin, sqrt_abs
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sigmoid(x)
        x = torch.sqrt(x.abs() + 0.11)
        x = torch.rsqrt(x * x + 1.0)
        x = torch.sin(2.66 * x) * x
        x = torch.sqrt(x.abs() + 0.23)
        return x


batch_size = 2794


def get_inputs():
    return [torch.randn(batch_size, 16, 2048, dtype=dtype)]


def get_init_inputs():
    return []
