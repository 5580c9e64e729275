import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d, masked_fill, bias_add, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 64, kernel_size=3, stride=1, padding=1)
        self.bias = nn.Parameter(torch.randn(64, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x.masked_fill(x < 0.33, 0.0)
        x = x + self.bias
        x = torch.mean(x.abs(), dim=1)
        return x


batch_size = 4400


def get_inputs():
    return [torch.randn(batch_size, 8, 1024, dtype=dtype)]


def get_init_inputs():
    return []
