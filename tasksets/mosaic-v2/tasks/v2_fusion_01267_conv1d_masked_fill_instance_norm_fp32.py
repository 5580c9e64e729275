import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d, masked_fill, instance_norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 16, kernel_size=3, stride=1, padding=1)
        self.inorm = nn.InstanceNorm1d(16, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x.masked_fill(x < -0.43, 0.0)
        x = self.inorm(x)
        return x


batch_size = 1160


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
