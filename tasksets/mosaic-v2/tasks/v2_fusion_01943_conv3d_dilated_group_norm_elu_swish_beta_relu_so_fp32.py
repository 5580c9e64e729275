import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d_dilated, group_norm, elu, swish_beta, relu, softshrink, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 128, kernel_size=3, stride=1, padding=2, dilation=2)
        self.gn = nn.GroupNorm(32, 128)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = self.gn(x)
        x = F.elu(x, alpha=2.31)
        x = x * torch.sigmoid(2.16 * x)
        x = torch.relu(x)
        x = F.softshrink(x, lambd=0.14)
        x = x * torch.sigmoid(r)
        return x


batch_size = 7


def get_inputs():
    return [torch.randn(batch_size, 4, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
