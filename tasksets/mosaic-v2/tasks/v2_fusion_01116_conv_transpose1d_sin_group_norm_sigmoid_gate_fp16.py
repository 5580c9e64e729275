import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: conv_transpose1d, sin, group_norm, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(32, 64, kernel_size=4, stride=2, padding=1)
        self.gn = nn.GroupNorm(4, 64)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.sin(x)
        x = self.gn(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 2133


def get_inputs():
    return [torch.randn(batch_size, 32, 2048, dtype=dtype)]


def get_init_inputs():
    return []
