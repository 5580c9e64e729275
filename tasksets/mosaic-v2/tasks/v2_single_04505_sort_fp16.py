import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (sort): sort (fp16).

    Ops: sort
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sort(x, dim=-1, descending=True).values
        return x


batch_size = 83


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype)]


def get_init_inputs():
    return []
