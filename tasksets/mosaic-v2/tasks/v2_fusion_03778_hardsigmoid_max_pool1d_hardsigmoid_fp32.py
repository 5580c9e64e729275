import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: hardsigmoid, max_pool1d, hardsigmoid
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardsigmoid(x)
        x = F.max_pool1d(x, kernel_size=2, stride=2, padding=0)
        x = F.hardsigmoid(x)
        return x


batch_size = 21462


def get_inputs():
    return [torch.randn(batch_size, 16, 2048, dtype=dtype)]


def get_init_inputs():
    return []
