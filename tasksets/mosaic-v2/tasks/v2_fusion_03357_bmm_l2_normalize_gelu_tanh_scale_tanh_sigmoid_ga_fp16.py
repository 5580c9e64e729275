import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: bmm, l2_normalize, gelu_tanh, scale, tanh, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = F.normalize(x, p=2.0, dim=-1)
        x = F.gelu(x, approximate='tanh')
        x = x * 1.75
        x = torch.tanh(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 3032


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype), torch.randn(batch_size, 256, 64, dtype=dtype) / 16]


def get_init_inputs():
    return []
