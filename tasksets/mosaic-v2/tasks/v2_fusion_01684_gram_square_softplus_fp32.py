import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, square, softplus
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = x * x
        x = F.softplus(x, beta=2.87)
        return x


batch_size = 25


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype)]


def get_init_inputs():
    return []
