import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: square, gelu, adaptive_max_pool3d
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * x
        x = F.gelu(x)
        x = F.adaptive_max_pool3d(x, 4)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 4, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
