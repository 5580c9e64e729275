import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: linear, l2_normalize, erf, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4096, 8192, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.normalize(x, p=2.0, dim=-1)
        x = torch.erf(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 56827


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
