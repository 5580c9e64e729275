import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, reduce_amax, l2_normalize
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = torch.amax(x, dim=1)
        x = F.normalize(x, p=2.0, dim=-1)
        return x


batch_size = 34


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype)]


def get_init_inputs():
    return []
