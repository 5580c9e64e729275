import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (pooling): adaptive_avg_pool2d (fp16).

    Ops: adaptive_avg_pool2d
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.adaptive_avg_pool2d(x, 2)
        return x


batch_size = 32768


def get_inputs():
    return [torch.randn(batch_size, 3, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
