import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, relu, sparsemax_like
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 1024
        x = torch.relu(x)
        x = torch.relu(x - x.mean(dim=-1, keepdim=True)) / x.shape[-1]
        return x


batch_size = 5129


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
