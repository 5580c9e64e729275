import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of its input (sigmoid_gate) (fp32).

    Ops: celu, sin, cube, cos, leaky_relu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        r = x
        x = F.celu(x, alpha=2.26)
        x = torch.sin(x)
        x = x * x * x
        x = torch.cos(x)
        x = F.leaky_relu(x, negative_slope=0.26)
        x = x * torch.sigmoid(r)
        return x


batch_size = 1168


def get_inputs():
    return [torch.randn(batch_size, 64, 1024, dtype=dtype)]


def get_init_inputs():
    return []
