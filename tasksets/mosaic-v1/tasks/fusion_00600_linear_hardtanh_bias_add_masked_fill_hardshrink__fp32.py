import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """linear -> hardtanh -> bias_add -> masked_fill -> hardshrink -> softmin (fp32)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 4096, bias=True)
        self.bias = nn.Parameter(torch.randn(4096,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.hardtanh(x, min_val=-0.92, max_val=0.92)
        x = x + self.bias
        x = x.masked_fill(x < 0.24, 0.0)
        x = F.hardshrink(x, lambd=0.6)
        x = F.softmin(x, dim=-1)
        return x


batch_size = 10


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
