import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, frac_sin, reduce_amin, logsigmoid
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(128, 64, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sin(0.79 * x) * x
        x = torch.amin(x, dim=1)
        x = F.logsigmoid(x)
        return x


batch_size = 681


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
