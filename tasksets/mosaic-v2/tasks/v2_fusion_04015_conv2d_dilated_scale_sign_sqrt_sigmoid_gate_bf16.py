import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: conv2d_dilated, scale, sign_sqrt, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 16, kernel_size=3, stride=1, padding=2, dilation=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = x * 2.55
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x * torch.sigmoid(r)
        return x


batch_size = 1598


def get_inputs():
    return [torch.randn(batch_size, 8, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
