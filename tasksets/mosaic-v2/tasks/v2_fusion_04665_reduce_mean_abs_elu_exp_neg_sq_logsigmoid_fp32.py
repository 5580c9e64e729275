import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: reduce_mean_abs, elu, exp_neg_sq, logsigmoid
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.mean(x.abs(), dim=1)
        x = F.elu(x, alpha=1.21)
        x = torch.exp(-x * x)
        x = F.logsigmoid(x)
        return x


batch_size = 384


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype)]


def get_init_inputs():
    return []
