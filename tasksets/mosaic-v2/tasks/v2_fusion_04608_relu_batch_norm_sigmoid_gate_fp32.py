import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of its input (sigmoid_gate) (fp32).

    Ops: relu, batch_norm, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(128)
        self.to(dtype)

    def forward(self, x):
        r = x
        x = torch.relu(x)
        x = self.bn(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 148


def get_inputs():
    return [torch.randn(batch_size, 128, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
