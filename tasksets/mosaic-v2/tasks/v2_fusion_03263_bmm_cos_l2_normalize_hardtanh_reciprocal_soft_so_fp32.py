import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: bmm, cos, l2_normalize, hardtanh, reciprocal_soft, softmax_temp, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        r = x
        x = torch.cos(x)
        x = F.normalize(x, p=2.0, dim=-1)
        x = F.hardtanh(x, min_val=-1.14, max_val=1.14)
        x = 1.0 / (1.0 + x.abs())
        x = torch.softmax(x / 0.96, dim=-1)
        x = x * torch.sigmoid(r)
        return x


batch_size = 336


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype), torch.randn(batch_size, 512, 64, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
