import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (rnn): 1-layer LSTM (bidirectional) (fp32).

    Ops: lstm
    """

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(128, 512, num_layers=1, batch_first=True, bidirectional=True)
        self.to(dtype)

    def forward(self, x):
        x = self.rnn(x)[0]
        return x


batch_size = 19


def get_inputs():
    return [torch.randn(batch_size * 8, 64, 128, dtype=dtype)]


def get_init_inputs():
    return []
