import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d, reduce_var, rsqrt_sq, scan_cumsum
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 128, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.var(x, dim=(2,))
        x = torch.rsqrt(x * x + 1.0)
        x = torch.cumsum(x, dim=1)
        return x


batch_size = 909


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
