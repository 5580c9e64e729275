import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: bmm, hardtanh, sort, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = F.hardtanh(x, min_val=-1.1, max_val=1.1)
        x = torch.sort(x, dim=-1, descending=True).values
        x = x * torch.sigmoid(r)
        return x


batch_size = 2050


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype), torch.randn(batch_size, 2048, 256, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
