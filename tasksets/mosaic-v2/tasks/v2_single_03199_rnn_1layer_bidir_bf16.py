import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (rnn): 1-layer RNN (bidirectional) (bf16).

    Ops: rnn
    """

    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(1024, 512, num_layers=1, batch_first=True, bidirectional=True)
        self.to(dtype)

    def forward(self, x):
        x = self.rnn(x)[0]
        return x


batch_size = 74


def get_inputs():
    return [torch.randn(batch_size * 8, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
