import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: bmm, sin, argmax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.sin(x)
        x = torch.argmax(x, dim=-1)
        return x


batch_size = 2414


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype), torch.randn(batch_size, 512, 256, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
