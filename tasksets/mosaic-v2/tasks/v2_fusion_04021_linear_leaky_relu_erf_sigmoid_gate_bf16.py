import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: linear, leaky_relu, erf, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.leaky_relu(x, negative_slope=0.56)
        x = torch.erf(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 154


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype)]


def get_init_inputs():
    return []
