import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, log_softmax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.log_softmax(x, dim=-1)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype), torch.randn(batch_size, 512, 256, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
