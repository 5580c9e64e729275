import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: gram, l2_normalize, binary_min, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.matmul(x, x.transpose(-1, -2)) / 1024
        r = x
        x = F.normalize(x, p=2.0, dim=-1)
        x = torch.minimum(x, y)
        x = x * torch.sigmoid(r)
        return x


batch_size = 1791


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype), torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
