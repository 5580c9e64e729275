import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv_transpose3d -> square -> reduce_sum -> sign_sqrt (fp32)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(8, 128, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * x
        x = torch.sum(x, dim=(2, 3, 4))
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 8


def get_inputs():
    return [torch.randn(batch_size, 8, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
