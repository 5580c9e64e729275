import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv_transpose1d, gelu_tanh, tanhshrink, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(8, 16, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = F.gelu(x, approximate='tanh')
        x = F.tanhshrink(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 382


def get_inputs():
    return [torch.randn(batch_size, 8, 16384, dtype=dtype)]


def get_init_inputs():
    return []
