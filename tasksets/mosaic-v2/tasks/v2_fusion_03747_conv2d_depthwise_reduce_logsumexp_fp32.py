import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_depthwise, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 16, kernel_size=5, stride=1, padding=2, groups=16)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.logsumexp(x, dim=(2, 3))
        return x


batch_size = 1090


def get_inputs():
    return [torch.randn(batch_size, 16, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
