import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 16, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.logsumexp(x, dim=(2, 3, 4))
        return x


batch_size = 679


def get_inputs():
    return [torch.randn(batch_size, 16, 16, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
