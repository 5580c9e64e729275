import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, hardsigmoid, binary_add, reduce_amax
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(32, 128, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x, y):
        x = self.deconv(x)
        x = F.hardsigmoid(x)
        x = x + y
        x = torch.amax(x, dim=(2, 3, 4))
        return x


batch_size = 19


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 32, 32, dtype=dtype), torch.randn(batch_size, 128, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
