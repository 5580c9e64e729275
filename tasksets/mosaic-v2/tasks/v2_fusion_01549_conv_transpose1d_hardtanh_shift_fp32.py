import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, hardtanh, shift
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(8, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardtanh(x, min_val=-0.62, max_val=0.62)
        x = x + 0.54
        return x


batch_size = 2610


def get_inputs():
    return [torch.randn(batch_size, 8, 2048, dtype=dtype)]


def get_init_inputs():
    return []
