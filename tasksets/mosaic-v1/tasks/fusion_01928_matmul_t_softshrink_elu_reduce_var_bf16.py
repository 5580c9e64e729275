import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """matmul_t -> softshrink -> elu -> reduce_var (bf16)."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 4096) * 0.01562)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.softshrink(x, lambd=0.22)
        x = F.elu(x, alpha=2.16)
        x = torch.var(x, dim=1)
        return x


batch_size = 393216


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
