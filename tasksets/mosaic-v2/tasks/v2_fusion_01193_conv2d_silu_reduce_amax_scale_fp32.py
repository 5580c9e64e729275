import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d, silu, reduce_amax, scale
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 128, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.silu(x)
        x = torch.amax(x, dim=1)
        x = x * 3.0
        return x


batch_size = 83


def get_inputs():
    return [torch.randn(batch_size, 64, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
