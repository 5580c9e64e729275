import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """instance_norm -> softplus -> hardswish (fp32)."""

    def __init__(self):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(64, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.inorm(x)
        x = F.softplus(x, beta=1.01)
        x = F.hardswish(x)
        return x


batch_size = 1068


def get_inputs():
    return [torch.randn(batch_size, 64, 128, 64, dtype=dtype)]


def get_init_inputs():
    return []
