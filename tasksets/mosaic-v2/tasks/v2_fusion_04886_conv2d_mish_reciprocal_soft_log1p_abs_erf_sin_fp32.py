import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv2d, mish, reciprocal_soft, log1p_abs, erf, sin, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 64, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = F.mish(x)
        x = 1.0 / (1.0 + x.abs())
        x = torch.log1p(x.abs())
        x = torch.erf(x)
        x = torch.sin(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 115


def get_inputs():
    return [torch.randn(batch_size, 32, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
