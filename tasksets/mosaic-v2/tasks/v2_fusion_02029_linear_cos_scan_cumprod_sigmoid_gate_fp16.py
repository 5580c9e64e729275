import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: linear, cos, scan_cumprod, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.cos(x)
        x = torch.cumprod(1.0 + 0.01 * x, dim=2)
        x = x * torch.sigmoid(r)
        return x


batch_size = 946


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
