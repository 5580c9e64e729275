import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, atan, softplus, hardsigmoid, rsqrt_sq
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.atan(x)
        x = F.softplus(x, beta=2.92)
        x = F.hardsigmoid(x)
        x = torch.rsqrt(x * x + 1.0)
        return x


batch_size = 2857


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
