import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: conv2d_grouped, softmax_channel, tanh, mish, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 32, kernel_size=5, stride=1, padding=2, groups=4, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = torch.softmax(x, dim=1)
        x = torch.tanh(x)
        x = F.mish(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 8329


def get_inputs():
    return [torch.randn(batch_size, 16, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
