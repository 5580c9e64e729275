import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: matmul_t, softmin, softshrink, frac_sin, cos, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 2048) * 0.0221)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = F.softmin(x, dim=-1)
        x = F.softshrink(x, lambd=0.56)
        x = torch.sin(1.03 * x) * x
        x = torch.cos(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 34


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype)]


def get_init_inputs():
    return []
