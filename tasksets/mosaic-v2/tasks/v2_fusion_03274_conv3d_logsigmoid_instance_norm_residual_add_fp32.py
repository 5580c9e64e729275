import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: conv3d, logsigmoid, instance_norm, residual_add
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 16, kernel_size=3, stride=1, padding=1)
        self.inorm = nn.InstanceNorm3d(16, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = F.logsigmoid(x)
        x = self.inorm(x)
        x = x + r
        return x


batch_size = 477


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
