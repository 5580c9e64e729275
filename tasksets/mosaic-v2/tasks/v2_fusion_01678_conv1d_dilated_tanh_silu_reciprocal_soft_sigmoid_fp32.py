import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv1d_dilated, tanh, silu, reciprocal_soft, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 256, kernel_size=3, stride=1, padding=2, dilation=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = torch.tanh(x)
        x = F.silu(x)
        x = 1.0 / (1.0 + x.abs())
        x = x * torch.sigmoid(r)
        return x


batch_size = 18


def get_inputs():
    return [torch.randn(batch_size, 32, 16384, dtype=dtype)]


def get_init_inputs():
    return []
