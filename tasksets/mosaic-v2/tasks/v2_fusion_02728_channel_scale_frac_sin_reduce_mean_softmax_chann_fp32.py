import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: channel_scale, frac_sin, reduce_mean, softmax, channel_scale
    """

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(3, 1, 1) + 0.5)
        self.scale1 = nn.Parameter(torch.rand(112,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = x * self.scale
        x = torch.sin(2.5 * x) * x
        x = torch.mean(x, dim=1)
        x = torch.softmax(x, dim=-1)
        x = x * self.scale1
        return x


batch_size = 4399


def get_inputs():
    return [torch.randn(batch_size, 3, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
