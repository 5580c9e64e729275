import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, logsigmoid, hardshrink, max_pool3d, reduce_std, silu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(8, 16, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.logsigmoid(x)
        x = F.hardshrink(x, lambd=0.26)
        x = F.max_pool3d(x, kernel_size=2, stride=2, padding=0)
        x = torch.std(x, dim=(2, 3, 4))
        x = F.silu(x)
        return x


batch_size = 264


def get_inputs():
    return [torch.randn(batch_size, 8, 32, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
