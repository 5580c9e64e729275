import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: bmm, scan_cumsum, hardshrink, abs, softplus, abs, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = torch.cumsum(x, dim=2)
        x = F.hardshrink(x, lambd=0.12)
        x = torch.abs(x)
        x = F.softplus(x, beta=1.08)
        x = torch.abs(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 4096


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype), torch.randn(batch_size, 768, 64, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
