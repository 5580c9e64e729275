import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d_pointwise, elu, channel_scale, selu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 32, kernel_size=1, stride=1, padding=0)
        self.scale = nn.Parameter(torch.rand(32, 1, 1, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = F.elu(x, alpha=1.0)
        x = x * self.scale
        x = F.selu(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 2141


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
