import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: leaky_relu, clamp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.leaky_relu(x, negative_slope=0.5)
        x = torch.clamp(x, min=-1.27, max=1.27)
        return x


batch_size = 8145


def get_inputs():
    return [torch.randn(batch_size, 64, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
