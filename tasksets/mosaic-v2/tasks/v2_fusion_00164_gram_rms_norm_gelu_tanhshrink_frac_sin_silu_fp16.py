import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: gram, rms_norm, gelu, tanhshrink, frac_sin, silu
    """

    def __init__(self):
        super().__init__()
        self.rms_weight = nn.Parameter(torch.ones(1024) + 0.1 * torch.randn(1024))
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 2048
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = F.gelu(x)
        x = F.tanhshrink(x)
        x = torch.sin(2.31 * x) * x
        x = F.silu(x)
        return x


batch_size = 193


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype)]


def get_init_inputs():
    return []
