import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: matmul_t, sin, hardswish, gelu_tanh, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 768) * 0.03608)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        r = x
        x = torch.sin(x)
        x = F.hardswish(x)
        x = F.gelu(x, approximate='tanh')
        x = x * torch.sigmoid(r)
        return x


batch_size = 428


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype)]


def get_init_inputs():
    return []
