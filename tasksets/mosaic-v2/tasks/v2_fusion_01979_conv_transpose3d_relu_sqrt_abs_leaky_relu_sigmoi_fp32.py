import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: conv_transpose3d, relu, sqrt_abs, leaky_relu, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(8, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.relu(x)
        x = torch.sqrt(x.abs() + 0.15)
        x = F.leaky_relu(x, negative_slope=0.54)
        x = x * torch.sigmoid(r)
        return x


batch_size = 465


def get_inputs():
    return [torch.randn(batch_size, 8, 16, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
