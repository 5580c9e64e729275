import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d_depthwise, sign_sqrt, frac_sin, elu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 8, kernel_size=3, stride=1, padding=1, groups=8)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = torch.sin(2.67 * x) * x
        x = F.elu(x, alpha=0.86)
        x = x * torch.sigmoid(r)
        return x


batch_size = 566


def get_inputs():
    return [torch.randn(batch_size, 8, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
