import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: linear, rsqrt_sq, hardsigmoid, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.rsqrt(x * x + 1.0)
        x = F.hardsigmoid(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
