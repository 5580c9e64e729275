import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d, sign_sqrt, reciprocal_soft, sin, bias_add, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 64, kernel_size=3, stride=1, padding=1, bias=False)
        self.bias = nn.Parameter(torch.randn(64, 1, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = 1.0 / (1.0 + x.abs())
        x = torch.sin(x)
        x = x + self.bias
        x = x * torch.sigmoid(r)
        return x


batch_size = 21


def get_inputs():
    return [torch.randn(batch_size, 16, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
