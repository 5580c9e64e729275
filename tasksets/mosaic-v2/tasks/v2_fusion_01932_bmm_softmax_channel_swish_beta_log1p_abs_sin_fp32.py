import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, softmax_channel, swish_beta, log1p_abs, sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.softmax(x, dim=1)
        x = x * torch.sigmoid(2.55 * x)
        x = torch.log1p(x.abs())
        x = torch.sin(x)
        return x


batch_size = 1248


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype), torch.randn(batch_size, 256, 512, dtype=dtype) / 16]


def get_init_inputs():
    return []
