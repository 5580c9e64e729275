import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (rnn): 1-layer LSTM (bidirectional) (bf16).

    Ops: lstm
    """

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(256, 1024, num_layers=1, batch_first=True, bidirectional=True)
        self.to(dtype)

    def forward(self, x):
        x = self.rnn(x)[0]
        return x


batch_size = 27


def get_inputs():
    return [torch.randn(batch_size * 8, 32, 256, dtype=dtype)]


def get_init_inputs():
    return []
