import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: conv3d_strided, atan, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        r = x
        x = torch.atan(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 1456


def get_inputs():
    return [torch.randn(batch_size, 4, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
