import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """lp_pool1d (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.lp_pool1d(x, norm_type=2, kernel_size=3, stride=2)
        return x


batch_size = 1536


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
