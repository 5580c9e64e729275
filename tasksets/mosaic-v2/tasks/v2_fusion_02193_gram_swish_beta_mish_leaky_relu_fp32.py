import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, swish_beta, mish, leaky_relu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 256
        x = x * torch.sigmoid(2.08 * x)
        x = F.mish(x)
        x = F.leaky_relu(x, negative_slope=0.35)
        return x


batch_size = 60


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype)]


def get_init_inputs():
    return []
