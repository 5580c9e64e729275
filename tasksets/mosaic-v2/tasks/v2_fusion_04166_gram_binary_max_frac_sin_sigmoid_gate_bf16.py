import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: gram, binary_max, frac_sin, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        r = x
        x = torch.maximum(x, y)
        x = torch.sin(1.78 * x) * x
        x = x * torch.sigmoid(r)
        return x


batch_size = 71


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype), torch.randn(batch_size, 2048, 2048, dtype=dtype)]


def get_init_inputs():
    return []
