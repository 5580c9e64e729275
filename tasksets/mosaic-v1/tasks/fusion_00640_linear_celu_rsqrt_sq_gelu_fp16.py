import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """linear -> celu -> rsqrt_sq -> gelu (fp16)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 8192, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.celu(x, alpha=1.09)
        x = torch.rsqrt(x * x + 1.0)
        x = F.gelu(x)
        return x


batch_size = 339


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
