import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, sign_sqrt, softsign, tanhshrink, silu, reciprocal_soft, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 1024, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.softsign(x)
        x = F.tanhshrink(x)
        x = F.silu(x)
        x = 1.0 / (1.0 + x.abs())
        x = x * torch.sigmoid(r)
        return x


batch_size = 77209


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
