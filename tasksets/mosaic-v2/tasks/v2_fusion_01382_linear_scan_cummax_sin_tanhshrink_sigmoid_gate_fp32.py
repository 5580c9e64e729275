import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, scan_cummax, sin, tanhshrink, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 2048, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.cummax(x, dim=2).values
        x = torch.sin(x)
        x = F.tanhshrink(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 41


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype)]


def get_init_inputs():
    return []
