import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, adaptive_max_pool1d, group_norm
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(128, 128, kernel_size=4, stride=2, padding=1)
        self.gn = nn.GroupNorm(32, 128)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.adaptive_max_pool1d(x, 1)
        x = self.gn(x)
        return x


batch_size = 839


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
