import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: bmm, softmax_temp, sigmoid, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = torch.softmax(x / 3.84, dim=-1)
        x = torch.sigmoid(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 4488


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype), torch.randn(batch_size, 256, 512, dtype=dtype) / 16]


def get_init_inputs():
    return []
