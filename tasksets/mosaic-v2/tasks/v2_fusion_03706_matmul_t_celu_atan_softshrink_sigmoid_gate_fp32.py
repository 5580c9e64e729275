import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: matmul_t, celu, atan, softshrink, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 512) * 0.04419)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = F.celu(x, alpha=1.67)
        x = torch.atan(x)
        x = F.softshrink(x, lambd=0.55)
        x = x * torch.sigmoid(r)
        return x


batch_size = 271


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
