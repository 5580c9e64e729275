import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: bmm, swish_beta, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = x * torch.sigmoid(1.17 * x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 148


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype), torch.randn(batch_size, 1024, 256, dtype=dtype) / 32]


def get_init_inputs():
    return []
