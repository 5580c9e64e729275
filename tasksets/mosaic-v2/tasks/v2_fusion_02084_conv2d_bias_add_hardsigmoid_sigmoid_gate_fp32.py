import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv2d, bias_add, hardsigmoid, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 32, kernel_size=3, stride=1, padding=1)
        self.bias = nn.Parameter(torch.randn(32, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = x + self.bias
        x = F.hardsigmoid(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 3329


def get_inputs():
    return [torch.randn(batch_size, 64, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
