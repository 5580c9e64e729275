import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of its input (sigmoid_gate) (fp32).

    Ops: cos, log1p_abs, hardshrink, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        r = x
        x = torch.cos(x)
        x = torch.log1p(x.abs())
        x = F.hardshrink(x, lambd=0.51)
        x = x * torch.sigmoid(r)
        return x


batch_size = 3732


def get_inputs():
    return [torch.randn(batch_size, 64, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
