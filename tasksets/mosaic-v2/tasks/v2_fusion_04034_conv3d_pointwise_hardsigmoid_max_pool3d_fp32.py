import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_pointwise, hardsigmoid, max_pool3d
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 32, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardsigmoid(x)
        x = F.max_pool3d(x, kernel_size=2, stride=2, padding=0)
        return x


batch_size = 431


def get_inputs():
    return [torch.randn(batch_size, 4, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
