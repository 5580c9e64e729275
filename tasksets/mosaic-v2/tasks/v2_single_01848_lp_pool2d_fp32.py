import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (pooling): lp_pool2d (fp32).

    Ops: lp_pool2d
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.lp_pool2d(x, norm_type=2, kernel_size=4, stride=4)
        return x


batch_size = 8024


def get_inputs():
    return [torch.randn(batch_size, 128, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
