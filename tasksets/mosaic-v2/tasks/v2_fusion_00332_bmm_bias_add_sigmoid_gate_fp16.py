import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: bmm, bias_add, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(64,) * 0.02)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = x + self.bias
        x = x * torch.sigmoid(r)
        return x


batch_size = 5033


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype), torch.randn(batch_size, 512, 64, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
