import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d, bias_add, softplus, relu, reduce_amax, rsqrt_sq
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 256, kernel_size=5, stride=1, padding=2, bias=False)
        self.bias = nn.Parameter(torch.randn(256, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x + self.bias
        x = F.softplus(x, beta=1.33)
        x = torch.relu(x)
        x = torch.amax(x, dim=(2,))
        x = torch.rsqrt(x * x + 1.0)
        return x


batch_size = 271


def get_inputs():
    return [torch.randn(batch_size, 32, 16384, dtype=dtype)]


def get_init_inputs():
    return []
