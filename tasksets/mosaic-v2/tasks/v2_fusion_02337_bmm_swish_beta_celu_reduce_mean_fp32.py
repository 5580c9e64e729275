import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, swish_beta, celu, reduce_mean
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = x * torch.sigmoid(1.4 * x)
        x = F.celu(x, alpha=2.13)
        x = torch.mean(x, dim=1)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype), torch.randn(batch_size, 2048, 64, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
