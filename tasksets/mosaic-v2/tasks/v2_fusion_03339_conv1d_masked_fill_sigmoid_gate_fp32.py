import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv1d, masked_fill, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 256, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = x.masked_fill(x < 0.16, 0.0)
        x = x * torch.sigmoid(r)
        return x


batch_size = 74


def get_inputs():
    return [torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
