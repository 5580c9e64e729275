import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: scan_logcumsumexp, abs, sin, l2_normalize
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.logcumsumexp(x, dim=1)
        x = torch.abs(x)
        x = torch.sin(x)
        x = F.normalize(x, p=2.0, dim=-1)
        return x


batch_size = 101155


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
