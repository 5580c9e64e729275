import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (bf16).

    Ops: conv_transpose2d, hardsigmoid, gelu, residual_add
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 32, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = F.hardsigmoid(x)
        x = F.gelu(x)
        x = x + r
        return x


batch_size = 10045


def get_inputs():
    return [torch.randn(batch_size, 16, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
