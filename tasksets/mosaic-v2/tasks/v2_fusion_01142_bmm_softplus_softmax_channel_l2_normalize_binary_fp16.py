import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: bmm, softplus, softmax_channel, l2_normalize, binary_max, erf, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w, y):
        x = torch.bmm(x, w)
        r = x
        x = F.softplus(x, beta=1.8)
        x = torch.softmax(x, dim=1)
        x = F.normalize(x, p=2.0, dim=-1)
        x = torch.maximum(x, y)
        x = torch.erf(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 2919


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype), torch.randn(batch_size, 256, 256, dtype=dtype) / 16, torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
