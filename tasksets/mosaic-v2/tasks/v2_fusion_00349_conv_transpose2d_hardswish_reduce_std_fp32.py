import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, hardswish, reduce_std
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(32, 128, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardswish(x)
        x = torch.std(x, dim=1)
        return x


batch_size = 60


def get_inputs():
    return [torch.randn(batch_size, 32, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
