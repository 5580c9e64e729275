import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, softmax, scan_cumprod, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 1024, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.softmax(x, dim=-1)
        x = torch.cumprod(1.0 + 0.01 * x, dim=1)
        x = x * torch.sigmoid(r)
        return x


batch_size = 97298


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
