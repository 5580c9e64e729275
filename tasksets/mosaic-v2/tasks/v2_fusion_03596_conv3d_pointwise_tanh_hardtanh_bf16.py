import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv3d_pointwise, tanh, hardtanh
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 256, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.tanh(x)
        x = F.hardtanh(x, min_val=-0.74, max_val=0.74)
        return x


batch_size = 270


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
