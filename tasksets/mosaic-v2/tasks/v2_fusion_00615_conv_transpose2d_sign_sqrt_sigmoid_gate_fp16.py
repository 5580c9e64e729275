import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: conv_transpose2d, sign_sqrt, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(32, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x * torch.sigmoid(r)
        return x


batch_size = 7694


def get_inputs():
    return [torch.randn(batch_size, 32, 28, 14, dtype=dtype)]


def get_init_inputs():
    return []
