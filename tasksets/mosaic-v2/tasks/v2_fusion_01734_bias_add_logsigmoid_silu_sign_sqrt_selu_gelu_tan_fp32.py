import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bias_add, logsigmoid, silu, sign_sqrt, selu, gelu_tanh
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(16, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = x + self.bias
        x = F.logsigmoid(x)
        x = F.silu(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.selu(x)
        x = F.gelu(x, approximate='tanh')
        return x


batch_size = 3969


def get_inputs():
    return [torch.randn(batch_size, 16, 2048, dtype=dtype)]


def get_init_inputs():
    return []
