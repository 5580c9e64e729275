import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose2d, cube, softshrink, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(8, 16, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * x * x
        x = F.softshrink(x, lambd=0.52)
        x = torch.logsumexp(x, dim=1)
        return x


batch_size = 313


def get_inputs():
    return [torch.randn(batch_size, 8, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
