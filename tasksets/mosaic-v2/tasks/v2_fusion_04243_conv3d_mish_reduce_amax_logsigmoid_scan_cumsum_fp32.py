import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d, mish, reduce_amax, logsigmoid, scan_cumsum
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 64, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.mish(x)
        x = torch.amax(x, dim=(2, 3, 4))
        x = F.logsigmoid(x)
        x = torch.cumsum(x, dim=1)
        return x


batch_size = 15


def get_inputs():
    return [torch.randn(batch_size, 32, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
