import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_strided, swish_beta, avg_pool1d, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(64, 16, kernel_size=5, stride=2, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * torch.sigmoid(1.04 * x)
        x = F.avg_pool1d(x, kernel_size=3, stride=2, padding=1)
        x = F.hardshrink(x, lambd=0.48)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 64, 2048, dtype=dtype)]


def get_init_inputs():
    return []
