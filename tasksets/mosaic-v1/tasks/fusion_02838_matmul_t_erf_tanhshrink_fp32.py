import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """matmul_t -> erf -> tanhshrink (fp32)."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.erf(x)
        x = F.tanhshrink(x)
        return x


batch_size = 29


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
