import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: relu, instance_norm, hardshrink, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(8, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = torch.relu(x)
        x = self.inorm(x)
        x = F.hardshrink(x, lambd=0.33)
        x = x.masked_fill(x < -0.47, 0.0)
        return x


batch_size = 235


def get_inputs():
    return [torch.randn(batch_size, 8, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
