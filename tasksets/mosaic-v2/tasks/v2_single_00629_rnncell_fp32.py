import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (rnn): rnncell (fp32).

    Ops: rnncell
    """

    def __init__(self):
        super().__init__()
        self.cell = nn.RNNCell(256, 512)
        self.to(dtype)

    def forward(self, x, h):
        x = self.cell(x, h)
        return x


batch_size = 3582


def get_inputs():
    return [torch.randn(batch_size * 32, 256, dtype=dtype), torch.randn(batch_size * 32, 512, dtype=dtype)]


def get_init_inputs():
    return []
