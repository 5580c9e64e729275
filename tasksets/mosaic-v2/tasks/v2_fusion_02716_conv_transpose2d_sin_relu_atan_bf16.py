import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose2d, sin, relu, atan
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 16, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sin(x)
        x = torch.relu(x)
        x = torch.atan(x)
        return x


batch_size = 76


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
