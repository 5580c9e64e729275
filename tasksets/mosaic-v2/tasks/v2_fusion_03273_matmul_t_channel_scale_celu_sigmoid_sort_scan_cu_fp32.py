import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: matmul_t, channel_scale, celu, sigmoid, sort, scan_cumsum, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 1024) * 0.03125)
        self.scale = nn.Parameter(torch.rand(4096,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = x * self.scale
        x = F.celu(x, alpha=1.63)
        x = torch.sigmoid(x)
        x = torch.sort(x, dim=-1).values
        x = torch.cumsum(x, dim=2)
        x = x * torch.sigmoid(r)
        return x


batch_size = 28


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
