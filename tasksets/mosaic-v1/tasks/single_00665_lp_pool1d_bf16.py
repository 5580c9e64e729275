import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """lp_pool1d (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.lp_pool1d(x, norm_type=2, kernel_size=4, stride=4)
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 8, 1024, dtype=dtype)]


def get_init_inputs():
    return []
