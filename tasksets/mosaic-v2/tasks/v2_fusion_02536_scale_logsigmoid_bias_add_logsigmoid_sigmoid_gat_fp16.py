import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of its input (sigmoid_gate) (fp16).

    Ops: scale, logsigmoid, bias_add, logsigmoid, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(16, 1, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        r = x
        x = x * 1.95
        x = F.logsigmoid(x)
        x = x + self.bias
        x = F.logsigmoid(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 151


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
