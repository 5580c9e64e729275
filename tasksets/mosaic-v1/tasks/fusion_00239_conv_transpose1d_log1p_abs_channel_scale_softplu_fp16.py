import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv_transpose1d -> log1p_abs -> channel_scale -> softplus (fp16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(16, 64, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.scale = nn.Parameter(torch.rand(64, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.log1p(x.abs())
        x = x * self.scale
        x = F.softplus(x, beta=1.38)
        return x


batch_size = 564


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
