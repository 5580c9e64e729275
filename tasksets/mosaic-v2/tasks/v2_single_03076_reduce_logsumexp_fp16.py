import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (reduction): reduce_logsumexp (fp16).

    Ops: reduce_logsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.logsumexp(x, dim=(2,))
        return x


batch_size = 85259


def get_inputs():
    return [torch.randn(batch_size, 16, 1024, dtype=dtype)]


def get_init_inputs():
    return []
