import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; its input is added back at the end (residual_add) (fp32).

    Ops: sqrt_abs, gelu_tanh, softplus, scatter_add, residual_add
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        r = x
        x = torch.sqrt(x.abs() + 0.33)
        x = F.gelu(x, approximate='tanh')
        x = F.softplus(x, beta=2.46)
        x = torch.zeros(x.shape[0], 4096, dtype=x.dtype, device=x.device).scatter_add_(1, idx, x)
        x = x + r
        return x


batch_size = 30817


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype), torch.randint(0, 4096, (batch_size, 4096))]


def get_init_inputs():
    return []
