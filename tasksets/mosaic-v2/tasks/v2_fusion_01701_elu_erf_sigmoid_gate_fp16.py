import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of its input (sigmoid_gate) (fp16).

    Ops: elu, erf, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        r = x
        x = F.elu(x, alpha=1.15)
        x = torch.erf(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 6107


def get_inputs():
    return [torch.randn(batch_size, 64, 2048, dtype=dtype)]


def get_init_inputs():
    return []
