import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose3d, mish, hardsigmoid
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(4, 128, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.mish(x)
        x = F.hardsigmoid(x)
        return x


batch_size = 157


def get_inputs():
    return [torch.randn(batch_size, 4, 32, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
