import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, hardswish, masked_fill, adaptive_avg_pool1d
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(8, 32, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardswish(x)
        x = x.masked_fill(x < 0.48, 0.0)
        x = F.adaptive_avg_pool1d(x, 7)
        return x


batch_size = 4433


def get_inputs():
    return [torch.randn(batch_size, 8, 1024, dtype=dtype)]


def get_init_inputs():
    return []
