import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d, batch_norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 128, kernel_size=3, stride=1, padding=1)
        self.bn = nn.BatchNorm3d(128)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        return x


batch_size = 510


def get_inputs():
    return [torch.randn(batch_size, 3, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
