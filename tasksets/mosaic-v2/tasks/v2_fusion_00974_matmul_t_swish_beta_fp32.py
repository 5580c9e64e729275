import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, swish_beta
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = x * torch.sigmoid(0.81 * x)
        return x


batch_size = 2515


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
