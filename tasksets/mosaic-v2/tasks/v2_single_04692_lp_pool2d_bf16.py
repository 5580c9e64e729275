import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (pooling): lp_pool2d (bf16).

    Ops: lp_pool2d
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.lp_pool2d(x, norm_type=2, kernel_size=3, stride=2)
        return x


batch_size = 4012


def get_inputs():
    return [torch.randn(batch_size, 8, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
