import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, reciprocal_soft, sign_sqrt, softmax, scale, atan
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = 1.0 / (1.0 + x.abs())
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = torch.softmax(x, dim=-1)
        x = x * 2.3
        x = torch.atan(x)
        return x


batch_size = 1010


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype), torch.randn(batch_size, 768, 256, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
