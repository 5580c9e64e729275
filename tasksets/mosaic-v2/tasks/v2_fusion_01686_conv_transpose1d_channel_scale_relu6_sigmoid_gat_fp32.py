import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv_transpose1d, channel_scale, relu6, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(8, 32, kernel_size=4, stride=2, padding=1)
        self.scale = nn.Parameter(torch.rand(32, 1) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = x * self.scale
        x = F.relu6(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 1502


def get_inputs():
    return [torch.randn(batch_size, 8, 2048, dtype=dtype)]


def get_init_inputs():
    return []
