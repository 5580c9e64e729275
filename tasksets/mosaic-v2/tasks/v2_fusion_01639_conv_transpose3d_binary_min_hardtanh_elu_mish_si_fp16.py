import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp16).

    Ops: conv_transpose3d, binary_min, hardtanh, elu, mish, sin, residual_add
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x, y):
        x = self.deconv(x)
        r = x
        x = torch.minimum(x, y)
        x = F.hardtanh(x, min_val=-2.1, max_val=2.1)
        x = F.elu(x, alpha=1.61)
        x = F.mish(x)
        x = torch.sin(x)
        x = x + r
        return x


batch_size = 601


def get_inputs():
    return [torch.randn(batch_size, 16, 16, 32, 32, dtype=dtype), torch.randn(batch_size, 32, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
