import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """matmul_t -> cos -> bias_add -> scan_cummax -> frac_sin (bf16)."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 256) * 0.0625)
        self.bias = nn.Parameter(torch.randn(1024,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.cos(x)
        x = x + self.bias
        x = torch.cummax(x, dim=2).values
        x = torch.sin(0.95 * x) * x
        return x


batch_size = 2251


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
