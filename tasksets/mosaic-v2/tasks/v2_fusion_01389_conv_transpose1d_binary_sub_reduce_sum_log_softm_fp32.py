import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, binary_sub, reduce_sum, log_softmax, scale, channel_scale
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(128, 16, kernel_size=2, stride=2, padding=0)
        self.scale = nn.Parameter(torch.rand(16,) + 0.5)
        self.to(dtype)

    def forward(self, x, y):
        x = self.deconv(x)
        x = x - y
        x = torch.sum(x, dim=(2,))
        x = torch.log_softmax(x, dim=-1)
        x = x * 2.72
        x = x * self.scale
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype), torch.randn(batch_size, 16, 8192, dtype=dtype)]


def get_init_inputs():
    return []
