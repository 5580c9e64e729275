import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv3d_depthwise -> instance_norm -> elu -> cos (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 32, kernel_size=3, stride=1, padding=1, groups=16)
        self.inorm = nn.InstanceNorm3d(32, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = self.inorm(x)
        x = F.elu(x, alpha=1.23)
        x = torch.cos(x)
        return x


batch_size = 598


def get_inputs():
    return [torch.randn(batch_size, 16, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
