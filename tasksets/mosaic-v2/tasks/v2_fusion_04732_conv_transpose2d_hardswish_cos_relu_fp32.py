import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, hardswish, cos, relu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(16, 128, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardswish(x)
        x = torch.cos(x)
        x = torch.relu(x)
        return x


batch_size = 291


def get_inputs():
    return [torch.randn(batch_size, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
