import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: gram, softmin, softsign, log_softmax, tanh, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 768
        r = x
        x = F.softmin(x, dim=-1)
        x = F.softsign(x)
        x = torch.log_softmax(x, dim=-1)
        x = torch.tanh(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 26


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype)]


def get_init_inputs():
    return []
