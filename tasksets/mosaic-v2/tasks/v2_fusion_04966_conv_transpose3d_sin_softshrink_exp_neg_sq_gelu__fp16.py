import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: conv_transpose3d, sin, softshrink, exp_neg_sq, gelu, relu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 64, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.sin(x)
        x = F.softshrink(x, lambd=0.1)
        x = torch.exp(-x * x)
        x = F.gelu(x)
        x = torch.relu(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 12


def get_inputs():
    return [torch.randn(batch_size, 16, 16, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
