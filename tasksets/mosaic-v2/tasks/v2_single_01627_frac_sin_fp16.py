import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (elementwise): frac_sin (fp16).

    Ops: frac_sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(2.81 * x) * x
        return x


batch_size = 13078


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
