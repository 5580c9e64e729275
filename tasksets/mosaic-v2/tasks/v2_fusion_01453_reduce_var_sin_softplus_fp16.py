import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: reduce_var, sin, softplus
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.var(x, dim=1)
        x = torch.sin(x)
        x = F.softplus(x, beta=1.89)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
