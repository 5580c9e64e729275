import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d, cube, celu, batch_norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 256, kernel_size=3, stride=1, padding=1)
        self.bn = nn.BatchNorm1d(256)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * x * x
        x = F.celu(x, alpha=0.72)
        x = self.bn(x)
        return x


batch_size = 75


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
