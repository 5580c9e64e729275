import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, masked_fill, silu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(128, 64, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x.masked_fill(x < -0.32, 0.0)
        x = F.silu(x)
        return x


batch_size = 3101


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
