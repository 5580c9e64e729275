import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, sqrt_abs, reduce_logsumexp, gelu_tanh
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 8192, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.sqrt(x.abs() + 0.07)
        x = torch.logsumexp(x, dim=1)
        x = F.gelu(x, approximate='tanh')
        return x


batch_size = 79


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype)]


def get_init_inputs():
    return []
