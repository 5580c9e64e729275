import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, argmax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.argmax(x, dim=-1)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype), torch.randn(batch_size, 512, 64, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
