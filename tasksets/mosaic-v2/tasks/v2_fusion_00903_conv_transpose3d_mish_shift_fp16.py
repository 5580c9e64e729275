import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose3d, mish, shift
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(32, 32, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.mish(x)
        x = x + 0.19
        return x


batch_size = 458


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
