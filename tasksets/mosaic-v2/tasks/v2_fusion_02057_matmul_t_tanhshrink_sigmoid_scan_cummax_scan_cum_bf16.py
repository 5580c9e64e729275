import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: matmul_t, tanhshrink, sigmoid, scan_cummax, scan_cumsum_rev, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 2048) * 0.0221)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = F.tanhshrink(x)
        x = torch.sigmoid(x)
        x = torch.cummax(x, dim=1).values
        x = torch.flip(torch.cumsum(torch.flip(x, [1]), dim=1), [1])
        x = x * torch.sigmoid(r)
        return x


batch_size = 49531


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
