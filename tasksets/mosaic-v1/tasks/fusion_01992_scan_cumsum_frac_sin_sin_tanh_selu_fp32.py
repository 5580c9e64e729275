import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """scan_cumsum -> frac_sin -> sin -> tanh -> selu (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.cumsum(x, dim=1)
        x = torch.sin(1.05 * x) * x
        x = torch.sin(x)
        x = torch.tanh(x)
        x = F.selu(x)
        return x


batch_size = 18808


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
