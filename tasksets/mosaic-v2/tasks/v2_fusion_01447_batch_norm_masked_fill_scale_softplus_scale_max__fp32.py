import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: batch_norm, masked_fill, scale, softplus, scale, max_pool3d
    """

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm3d(4)
        self.to(dtype)

    def forward(self, x):
        x = self.bn(x)
        x = x.masked_fill(x < 0.37, 0.0)
        x = x * 2.91
        x = F.softplus(x, beta=1.37)
        x = x * 2.85
        x = F.max_pool3d(x, kernel_size=3, stride=2, padding=1)
        return x


batch_size = 769


def get_inputs():
    return [torch.randn(batch_size, 4, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
