import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of its input (sigmoid_gate) (fp16).

    Ops: softmax_channel, sin, relu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        r = x
        x = torch.softmax(x, dim=1)
        x = torch.sin(x)
        x = torch.relu(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 5431


def get_inputs():
    return [torch.randn(batch_size, 16, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
