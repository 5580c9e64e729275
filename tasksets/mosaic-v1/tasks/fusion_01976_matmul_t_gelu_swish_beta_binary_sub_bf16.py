import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """matmul_t -> gelu -> swish_beta -> binary_sub (bf16)."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x, y):
        x = torch.matmul(x, self.weight.t())
        x = F.gelu(x)
        x = x * torch.sigmoid(1.92 * x)
        x = x - y
        return x


batch_size = 86


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype), torch.randn(batch_size, 1024, 2048, dtype=dtype)]


def get_init_inputs():
    return []
