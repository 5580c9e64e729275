import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, leaky_relu, binary_mul, logsigmoid, rms_norm, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 1024, bias=True)
        self.rms_weight = nn.Parameter(torch.ones(1024) + 0.1 * torch.randn(1024))
        self.to(dtype)

    def forward(self, x, y):
        x = self.fc(x)
        r = x
        x = F.leaky_relu(x, negative_slope=0.29)
        x = x * y
        x = F.logsigmoid(x)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = x * torch.sigmoid(r)
        return x


batch_size = 365


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype), torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
