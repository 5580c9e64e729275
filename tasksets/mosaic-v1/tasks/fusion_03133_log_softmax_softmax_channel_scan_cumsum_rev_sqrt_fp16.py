import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """log_softmax -> softmax_channel -> scan_cumsum_rev -> sqrt_abs (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.log_softmax(x, dim=-1)
        x = torch.softmax(x, dim=1)
        x = torch.flip(torch.cumsum(torch.flip(x, [2]), dim=2), [2])
        x = torch.sqrt(x.abs() + 0.52)
        return x


batch_size = 536


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
