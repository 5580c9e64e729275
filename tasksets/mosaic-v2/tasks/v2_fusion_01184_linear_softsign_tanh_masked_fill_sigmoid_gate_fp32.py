import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, softsign, tanh, masked_fill, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.softsign(x)
        x = torch.tanh(x)
        x = x.masked_fill(x < 0.39, 0.0)
        x = x * torch.sigmoid(r)
        return x


batch_size = 184


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
