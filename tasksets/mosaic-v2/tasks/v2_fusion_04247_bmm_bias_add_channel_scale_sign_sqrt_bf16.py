import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, bias_add, channel_scale, sign_sqrt
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(256,) * 0.02)
        self.scale = nn.Parameter(torch.rand(256,) + 0.5)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = x + self.bias
        x = x * self.scale
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 327


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype), torch.randn(batch_size, 256, 256, dtype=dtype) / 16]


def get_init_inputs():
    return []
