import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv_transpose3d -> softshrink -> sigmoid (bf16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(32, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.softshrink(x, lambd=0.31)
        x = torch.sigmoid(x)
        return x


batch_size = 105


def get_inputs():
    return [torch.randn(batch_size, 32, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
