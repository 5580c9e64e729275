import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: reduce_sum, gelu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sum(x, dim=1)
        x = F.gelu(x)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
