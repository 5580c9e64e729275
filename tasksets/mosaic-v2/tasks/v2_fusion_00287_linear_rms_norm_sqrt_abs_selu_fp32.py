import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, rms_norm, sqrt_abs, selu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 2048, bias=False)
        self.rms_weight = nn.Parameter(torch.ones(2048) + 0.1 * torch.randn(2048))
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = torch.sqrt(x.abs() + 0.24)
        x = F.selu(x)
        return x


batch_size = 17


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
