import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: conv3d_dilated, batch_norm, shift, sin, hardswish, sign_sqrt, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 64, kernel_size=3, stride=1, padding=2, dilation=2, bias=False)
        self.bn = nn.BatchNorm3d(64)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = self.bn(x)
        x = x + 0.48
        x = torch.sin(x)
        x = F.hardswish(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x * torch.sigmoid(r)
        return x


batch_size = 72


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
