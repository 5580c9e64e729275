import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: bmm, square, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = x * x
        x = x * torch.sigmoid(r)
        return x


batch_size = 85


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype), torch.randn(batch_size, 768, 256, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
