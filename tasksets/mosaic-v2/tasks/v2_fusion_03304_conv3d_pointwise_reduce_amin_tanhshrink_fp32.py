import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_pointwise, reduce_amin, tanhshrink
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 16, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.amin(x, dim=(2, 3, 4))
        x = F.tanhshrink(x)
        return x


batch_size = 3140


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
