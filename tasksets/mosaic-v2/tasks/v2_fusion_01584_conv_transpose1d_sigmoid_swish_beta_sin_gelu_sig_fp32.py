import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv_transpose1d, sigmoid, swish_beta, sin, gelu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(16, 64, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.sigmoid(x)
        x = x * torch.sigmoid(1.52 * x)
        x = torch.sin(x)
        x = F.gelu(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 453


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
