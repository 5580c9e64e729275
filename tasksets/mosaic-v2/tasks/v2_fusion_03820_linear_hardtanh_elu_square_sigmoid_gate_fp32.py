import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, hardtanh, elu, square, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32768, 256, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.hardtanh(x, min_val=-0.73, max_val=0.73)
        x = F.elu(x, alpha=0.91)
        x = x * x
        x = x * torch.sigmoid(r)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
