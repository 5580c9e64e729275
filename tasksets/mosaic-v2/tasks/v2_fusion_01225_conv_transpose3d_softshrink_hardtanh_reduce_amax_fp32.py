import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, softshrink, hardtanh, reduce_amax
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 32, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.softshrink(x, lambd=0.41)
        x = F.hardtanh(x, min_val=-0.75, max_val=0.75)
        x = torch.amax(x, dim=(2, 3, 4))
        return x


batch_size = 26


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
