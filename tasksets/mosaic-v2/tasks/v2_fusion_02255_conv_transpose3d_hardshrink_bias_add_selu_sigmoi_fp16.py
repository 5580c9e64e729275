import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: conv_transpose3d, hardshrink, bias_add, selu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(3, 128, kernel_size=2, stride=2, padding=0)
        self.bias = nn.Parameter(torch.randn(128, 1, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = F.hardshrink(x, lambd=0.4)
        x = x + self.bias
        x = F.selu(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 26


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
