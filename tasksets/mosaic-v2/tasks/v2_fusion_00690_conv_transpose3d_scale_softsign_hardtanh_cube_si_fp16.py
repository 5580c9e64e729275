import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: conv_transpose3d, scale, softsign, hardtanh, cube, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = x * 1.65
        x = F.softsign(x)
        x = F.hardtanh(x, min_val=-2.23, max_val=2.23)
        x = x * x * x
        x = x * torch.sigmoid(r)
        return x


batch_size = 404


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
