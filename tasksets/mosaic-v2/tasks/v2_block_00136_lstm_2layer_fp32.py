import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """2-layer LSTM (fp32).

    Ops: lstm, lstm
    """

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(256, 512, num_layers=2, batch_first=True)
        self.to(dtype)

    def forward(self, x):
        x = self.rnn(x)[0]
        return x


batch_size = 14


def get_inputs():
    return [torch.randn(batch_size * 8, 32, 256, dtype=dtype)]


def get_init_inputs():
    return []
