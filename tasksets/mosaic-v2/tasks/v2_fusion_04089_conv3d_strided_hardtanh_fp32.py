import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_strided, hardtanh
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 256, kernel_size=3, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardtanh(x, min_val=-0.62, max_val=0.62)
        return x


batch_size = 152


def get_inputs():
    return [torch.randn(batch_size, 32, 24, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
