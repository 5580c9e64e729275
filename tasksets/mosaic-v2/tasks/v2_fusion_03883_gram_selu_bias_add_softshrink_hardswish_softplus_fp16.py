import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: gram, selu, bias_add, softshrink, hardswish, softplus
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(512,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 1024
        x = F.selu(x)
        x = x + self.bias
        x = F.softshrink(x, lambd=0.25)
        x = F.hardswish(x)
        x = F.softplus(x, beta=2.68)
        return x


batch_size = 864


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype)]


def get_init_inputs():
    return []
