import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d_strided, binary_min, elu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 16, kernel_size=3, stride=2, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x, y):
        x = self.conv(x)
        r = x
        x = torch.minimum(x, y)
        x = F.elu(x, alpha=2.1)
        x = x * torch.sigmoid(r)
        return x


batch_size = 2468


def get_inputs():
    return [torch.randn(batch_size, 16, 8, 48, 48, dtype=dtype), torch.randn(batch_size, 16, 4, 24, 24, dtype=dtype)]


def get_init_inputs():
    return []
