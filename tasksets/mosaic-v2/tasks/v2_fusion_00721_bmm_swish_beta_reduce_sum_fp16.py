import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: bmm, swish_beta, reduce_sum
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = x * torch.sigmoid(1.2 * x)
        x = torch.sum(x, dim=1)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype), torch.randn(batch_size, 512, 64, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
