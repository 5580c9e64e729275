import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv1d_grouped, cos, relu, clamp, hardtanh, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 128, kernel_size=3, stride=1, padding=1, groups=4, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = torch.cos(x)
        x = torch.relu(x)
        x = torch.clamp(x, min=-0.71, max=0.71)
        x = F.hardtanh(x, min_val=-2.37, max_val=2.37)
        x = x * torch.sigmoid(r)
        return x


batch_size = 3187


def get_inputs():
    return [torch.randn(batch_size, 8, 1024, dtype=dtype)]


def get_init_inputs():
    return []
