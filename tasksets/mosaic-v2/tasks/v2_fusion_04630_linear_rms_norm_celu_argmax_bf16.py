import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, rms_norm, celu, argmax
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 8192, bias=True)
        self.rms_weight = nn.Parameter(torch.ones(8192) + 0.1 * torch.randn(8192))
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = F.celu(x, alpha=2.82)
        x = torch.argmax(x, dim=-1)
        return x


batch_size = 68


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
