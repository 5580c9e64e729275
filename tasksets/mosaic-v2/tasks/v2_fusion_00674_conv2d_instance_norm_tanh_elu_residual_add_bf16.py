import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (bf16).

    Ops: conv2d, instance_norm, tanh, elu, residual_add
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 64, kernel_size=3, stride=1, padding=1)
        self.inorm = nn.InstanceNorm2d(64, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = self.inorm(x)
        x = torch.tanh(x)
        x = F.elu(x, alpha=2.14)
        x = x + r
        return x


batch_size = 473


def get_inputs():
    return [torch.randn(batch_size, 16, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
