import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, celu, log1p_abs, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.celu(x, alpha=0.95)
        x = torch.log1p(x.abs())
        x = x * torch.sigmoid(r)
        return x


batch_size = 402


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype)]


def get_init_inputs():
    return []
