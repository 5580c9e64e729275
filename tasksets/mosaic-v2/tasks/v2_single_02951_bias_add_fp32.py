import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): bias_add (fp32).

    Ops: bias_add
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(8, 1, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = x + self.bias
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 8, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
