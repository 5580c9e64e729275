import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: gram, masked_fill, binary_addcmul, relu6, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.matmul(x, x.transpose(-1, -2)) / 1024
        r = x
        x = x.masked_fill(x < -0.35, 0.0)
        x = torch.addcmul(x, x, y, value=0.5)
        x = F.relu6(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 162


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype), torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
