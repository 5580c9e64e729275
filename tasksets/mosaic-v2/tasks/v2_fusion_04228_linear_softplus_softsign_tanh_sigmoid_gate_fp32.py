import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, softplus, softsign, tanh, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 256, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.softplus(x, beta=1.22)
        x = F.softsign(x)
        x = torch.tanh(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 531


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
