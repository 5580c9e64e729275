import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: clamp, softshrink, reduce_mean, silu, reduce_l2norm
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.clamp(x, min=-2.49, max=2.49)
        x = F.softshrink(x, lambd=0.51)
        x = torch.mean(x, dim=2)
        x = F.silu(x)
        x = torch.linalg.vector_norm(x, dim=1)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
