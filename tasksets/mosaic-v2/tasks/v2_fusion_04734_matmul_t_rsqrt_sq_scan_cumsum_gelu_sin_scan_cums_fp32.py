import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, rsqrt_sq, scan_cumsum, gelu, sin, scan_cumsum
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.rsqrt(x * x + 1.0)
        x = torch.cumsum(x, dim=2)
        x = F.gelu(x)
        x = torch.sin(x)
        x = torch.cumsum(x, dim=2)
        return x


batch_size = 156


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
