import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): clamp (fp32).

    Ops: clamp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.clamp(x, min=-1.63, max=1.63)
        return x


batch_size = 11350


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
