import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sigmoid, reduce_logsumexp, cos, celu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sigmoid(x)
        x = torch.logsumexp(x, dim=1)
        x = torch.cos(x)
        x = F.celu(x, alpha=2.53)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
