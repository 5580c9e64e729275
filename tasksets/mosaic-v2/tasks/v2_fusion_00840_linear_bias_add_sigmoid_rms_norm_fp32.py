import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, bias_add, sigmoid, rms_norm
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 4096, bias=True)
        self.bias = nn.Parameter(torch.randn(4096,) * 0.02)
        self.rms_weight = nn.Parameter(torch.ones(4096) + 0.1 * torch.randn(4096))
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x + self.bias
        x = torch.sigmoid(x)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        return x


batch_size = 11


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype)]


def get_init_inputs():
    return []
