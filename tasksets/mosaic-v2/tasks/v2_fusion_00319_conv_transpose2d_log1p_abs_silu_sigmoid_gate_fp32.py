import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv_transpose2d, log1p_abs, silu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.log1p(x.abs())
        x = F.silu(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 3065


def get_inputs():
    return [torch.randn(batch_size, 16, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
