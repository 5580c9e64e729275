import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """MLP block with rms_norm and a residual (bf16).

    Ops: rms_norm, linear, gelu_tanh, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm_weight = nn.Parameter(torch.ones(512))
        self.fc1 = nn.Linear(512, 1024)
        self.fc2 = nn.Linear(1024, 512)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.norm_weight
        h = self.fc2(F.gelu(self.fc1(h), approximate='tanh'))
        x = x + h
        return x


batch_size = 919


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
