import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (elementwise): binary_addcmul (fp32).

    Ops: binary_addcmul
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = torch.addcmul(x, x, y, value=0.5)
        return x


batch_size = 768


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 64, 64, dtype=dtype), torch.randn(batch_size, 32, 8, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
