import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: matmul_t, reciprocal_soft, sin, silu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 32768) * 0.005524)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = 1.0 / (1.0 + x.abs())
        x = torch.sin(x)
        x = F.silu(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
