import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """lstmcell (fp16)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(1024, 2048)
        self.to(dtype)

    def forward(self, x, h, cx):
        x = self.cell(x, (h, cx))
        return x


batch_size = 924


def get_inputs():
    return [torch.randn(batch_size * 128, 1024, dtype=dtype), torch.randn(batch_size * 128, 2048, dtype=dtype), torch.randn(batch_size * 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
