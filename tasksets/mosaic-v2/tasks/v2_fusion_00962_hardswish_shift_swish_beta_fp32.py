import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: hardswish, shift, swish_beta
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.hardswish(x)
        x = x + 0.51
        x = x * torch.sigmoid(0.92 * x)
        return x


batch_size = 758


def get_inputs():
    return [torch.randn(batch_size, 16, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
