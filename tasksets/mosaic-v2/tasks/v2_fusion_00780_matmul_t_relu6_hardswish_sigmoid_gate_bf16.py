import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: matmul_t, relu6, hardswish, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 8192) * 0.01105)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = F.relu6(x)
        x = F.hardswish(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
