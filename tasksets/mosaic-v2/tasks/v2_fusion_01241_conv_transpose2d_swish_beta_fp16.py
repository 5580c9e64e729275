import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose2d, swish_beta
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(32, 64, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * torch.sigmoid(2.45 * x)
        return x


batch_size = 327


def get_inputs():
    return [torch.randn(batch_size, 32, 112, 56, dtype=dtype)]


def get_init_inputs():
    return []
