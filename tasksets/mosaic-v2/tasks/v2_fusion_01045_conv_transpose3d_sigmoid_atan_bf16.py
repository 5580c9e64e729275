import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose3d, sigmoid, atan
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(8, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sigmoid(x)
        x = torch.atan(x)
        return x


batch_size = 1755


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
