import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: relu, swish_beta
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.relu(x)
        x = x * torch.sigmoid(2.8 * x)
        return x


batch_size = 10986


def get_inputs():
    return [torch.randn(batch_size, 8, 2048, dtype=dtype)]


def get_init_inputs():
    return []
