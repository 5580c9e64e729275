import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, reduce_std
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(8, 128, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.std(x, dim=1)
        return x


batch_size = 97


def get_inputs():
    return [torch.randn(batch_size, 8, 16384, dtype=dtype)]


def get_init_inputs():
    return []
