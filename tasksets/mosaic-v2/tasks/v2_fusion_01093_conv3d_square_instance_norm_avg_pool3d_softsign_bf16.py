import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv3d, square, instance_norm, avg_pool3d, softsign
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 64, kernel_size=3, stride=1, padding=1, bias=False)
        self.inorm = nn.InstanceNorm3d(64, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * x
        x = self.inorm(x)
        x = F.avg_pool3d(x, kernel_size=2, stride=2, padding=0)
        x = F.softsign(x)
        return x


batch_size = 99


def get_inputs():
    return [torch.randn(batch_size, 8, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
