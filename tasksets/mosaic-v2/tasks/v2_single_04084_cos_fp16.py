import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): cos (fp16).

    Ops: cos
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.cos(x)
        return x


batch_size = 2048


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype)]


def get_init_inputs():
    return []
