import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv_transpose2d -> atan -> reduce_amin (bf16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(3, 16, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.atan(x)
        x = torch.amin(x, dim=1)
        return x


batch_size = 3258


def get_inputs():
    return [torch.randn(batch_size, 3, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
