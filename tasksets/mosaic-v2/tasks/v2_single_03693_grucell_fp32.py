import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (rnn): grucell (fp32).

    Ops: grucell
    """

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(2048, 512)
        self.to(dtype)

    def forward(self, x, h):
        x = self.cell(x, h)
        return x


batch_size = 66


def get_inputs():
    return [torch.randn(batch_size * 128, 2048, dtype=dtype), torch.randn(batch_size * 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
