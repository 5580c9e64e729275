import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv3d_pointwise, relu, softsign, tanh, logsigmoid, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 128, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = torch.relu(x)
        x = F.softsign(x)
        x = torch.tanh(x)
        x = F.logsigmoid(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 708


def get_inputs():
    return [torch.randn(batch_size, 4, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
