import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, hardtanh, gelu, reduce_sum
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 2048
        x = F.hardtanh(x, min_val=-1.42, max_val=1.42)
        x = F.gelu(x)
        x = torch.sum(x, dim=1)
        return x


batch_size = 12


def get_inputs():
    return [torch.randn(batch_size, 2048, 2048, dtype=dtype)]


def get_init_inputs():
    return []
