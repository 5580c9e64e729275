import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_depthwise, swish_beta, relu6, masked_fill, max_pool3d
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 8, kernel_size=3, stride=1, padding=1, groups=8)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * torch.sigmoid(2.5 * x)
        x = F.relu6(x)
        x = x.masked_fill(x < 0.35, 0.0)
        x = F.max_pool3d(x, kernel_size=3, stride=2, padding=1)
        return x


batch_size = 2098


def get_inputs():
    return [torch.randn(batch_size, 8, 16, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
