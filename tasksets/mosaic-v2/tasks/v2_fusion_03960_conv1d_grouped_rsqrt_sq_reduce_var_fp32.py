import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_grouped, rsqrt_sq, reduce_var
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 256, kernel_size=3, stride=1, padding=1, groups=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.rsqrt(x * x + 1.0)
        x = torch.var(x, dim=(2,))
        return x


batch_size = 561


def get_inputs():
    return [torch.randn(batch_size, 32, 2048, dtype=dtype)]


def get_init_inputs():
    return []
