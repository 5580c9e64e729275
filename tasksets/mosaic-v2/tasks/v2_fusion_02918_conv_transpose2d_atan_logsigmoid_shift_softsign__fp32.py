import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: conv_transpose2d, atan, logsigmoid, shift, softsign, group_norm, residual_add
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(32, 64, kernel_size=2, stride=2, padding=0)
        self.gn = nn.GroupNorm(2, 64)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.atan(x)
        x = F.logsigmoid(x)
        x = x + 0.36
        x = F.softsign(x)
        x = self.gn(x)
        x = x + r
        return x


batch_size = 19


def get_inputs():
    return [torch.randn(batch_size, 32, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
