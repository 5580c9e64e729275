import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: matmul_t, gelu, masked_fill, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 2048) * 0.0221)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = F.gelu(x)
        x = x.masked_fill(x < 0.01, 0.0)
        x = x * torch.sigmoid(r)
        return x


batch_size = 55743


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
