import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d_strided, celu, square, relu6, group_norm, tanh, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 64, kernel_size=3, stride=2, padding=1, bias=False)
        self.gn = nn.GroupNorm(4, 64)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = F.celu(x, alpha=1.49)
        x = x * x
        x = F.relu6(x)
        x = self.gn(x)
        x = torch.tanh(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 82


def get_inputs():
    return [torch.randn(batch_size, 32, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
