import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, clamp, sigmoid, elu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 8192, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.clamp(x, min=-2.18, max=2.18)
        x = torch.sigmoid(x)
        x = F.elu(x, alpha=2.95)
        x = x * torch.sigmoid(r)
        return x


batch_size = 23


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype)]


def get_init_inputs():
    return []
