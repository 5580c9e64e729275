import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (bf16).

    Ops: conv_transpose1d, masked_fill, relu, residual_add
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(64, 32, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = x.masked_fill(x < -0.40, 0.0)
        x = torch.relu(x)
        x = x + r
        return x


batch_size = 3242


def get_inputs():
    return [torch.randn(batch_size, 64, 2048, dtype=dtype)]


def get_init_inputs():
    return []
