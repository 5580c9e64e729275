import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (activation): celu (fp16).

    Ops: celu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.celu(x, alpha=1.67)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
