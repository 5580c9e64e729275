import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (rnn): lstmcell (fp32).

    Ops: lstmcell
    """

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(512, 1024)
        self.to(dtype)

    def forward(self, x, h, cx):
        x = self.cell(x, (h, cx))
        return x


batch_size = 203


def get_inputs():
    return [torch.randn(batch_size * 32, 512, dtype=dtype), torch.randn(batch_size * 32, 1024, dtype=dtype), torch.randn(batch_size * 32, 1024, dtype=dtype)]


def get_init_inputs():
    return []
