import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: bmm, relu, scan_cummax, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = torch.relu(x)
        x = torch.cummax(x, dim=2).values
        x = x * torch.sigmoid(r)
        return x


batch_size = 693


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype), torch.randn(batch_size, 512, 512, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
