import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, softplus, scan_cumsum_rev, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.softplus(x, beta=0.98)
        x = torch.flip(torch.cumsum(torch.flip(x, [1]), dim=1), [1])
        x = x * torch.sigmoid(r)
        return x


batch_size = 76684


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
