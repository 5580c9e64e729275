import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, gelu_tanh, sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.gelu(x, approximate='tanh')
        x = torch.sin(x)
        return x


batch_size = 526


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype), torch.randn(batch_size, 512, 128, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
