import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_grouped, softplus, group_norm, softsign, reduce_l2norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 32, kernel_size=3, stride=1, padding=1, groups=4)
        self.gn = nn.GroupNorm(4, 32)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.softplus(x, beta=1.76)
        x = self.gn(x)
        x = F.softsign(x)
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        return x


batch_size = 55


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
