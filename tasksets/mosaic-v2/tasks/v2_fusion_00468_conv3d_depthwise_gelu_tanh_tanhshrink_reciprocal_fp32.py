import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d_depthwise, gelu_tanh, tanhshrink, reciprocal_soft, log1p_abs, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 16, kernel_size=3, stride=1, padding=1, groups=16)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = F.gelu(x, approximate='tanh')
        x = F.tanhshrink(x)
        x = 1.0 / (1.0 + x.abs())
        x = torch.log1p(x.abs())
        x = x * torch.sigmoid(r)
        return x


batch_size = 98


def get_inputs():
    return [torch.randn(batch_size, 16, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
