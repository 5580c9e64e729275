import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: bmm, sin, layer_norm, softmax_channel, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(256, eps=1e-5)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = torch.sin(x)
        x = self.ln(x)
        x = torch.softmax(x, dim=1)
        x = x * torch.sigmoid(r)
        return x


batch_size = 2044


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype), torch.randn(batch_size, 256, 256, dtype=dtype) / 16]


def get_init_inputs():
    return []
