import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """lp_pool2d (fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.lp_pool2d(x, norm_type=2, kernel_size=2, stride=2)
        return x


batch_size = 4096


def get_inputs():
    return [torch.randn(batch_size, 3, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
