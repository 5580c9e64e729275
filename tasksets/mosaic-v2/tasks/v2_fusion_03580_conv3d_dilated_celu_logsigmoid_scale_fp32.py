import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_dilated, celu, logsigmoid, scale
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 64, kernel_size=3, stride=1, padding=2, dilation=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.celu(x, alpha=2.53)
        x = F.logsigmoid(x)
        x = x * 2.79
        return x


batch_size = 256


def get_inputs():
    return [torch.randn(batch_size, 16, 32, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
