import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(64, 64, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.logsumexp(x, dim=(2, 3))
        return x


batch_size = 77


def get_inputs():
    return [torch.randn(batch_size, 64, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
