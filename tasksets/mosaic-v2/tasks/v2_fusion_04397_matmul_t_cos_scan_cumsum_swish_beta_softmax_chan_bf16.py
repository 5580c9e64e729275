import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, cos, scan_cumsum, swish_beta, softmax_channel, exp_neg_sq
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.cos(x)
        x = torch.cumsum(x, dim=2)
        x = x * torch.sigmoid(2.41 * x)
        x = torch.softmax(x, dim=1)
        x = torch.exp(-x * x)
        return x


batch_size = 1757


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
