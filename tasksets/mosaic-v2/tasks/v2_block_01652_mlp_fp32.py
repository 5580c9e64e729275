import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """MLP block with rms_norm and a residual (fp32).

    Ops: rms_norm, linear, gelu, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm_weight = nn.Parameter(torch.ones(1024))
        self.fc1 = nn.Linear(1024, 4096)
        self.fc2 = nn.Linear(4096, 1024)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.norm_weight
        h = self.fc2(F.gelu(self.fc1(h)))
        x = x + h
        return x


batch_size = 16


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
