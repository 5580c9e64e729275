import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (rnn): rnncell (bf16).

    Ops: rnncell
    """

    def __init__(self):
        super().__init__()
        self.cell = nn.RNNCell(2048, 512)
        self.to(dtype)

    def forward(self, x, h):
        x = self.cell(x, h)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size * 128, 2048, dtype=dtype), torch.randn(batch_size * 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
