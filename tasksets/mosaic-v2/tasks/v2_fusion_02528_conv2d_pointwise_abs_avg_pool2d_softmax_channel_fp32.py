import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_pointwise, abs, avg_pool2d, softmax_channel
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 256, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.abs(x)
        x = F.avg_pool2d(x, kernel_size=3, stride=2, padding=1)
        x = torch.softmax(x, dim=1)
        return x


batch_size = 4522


def get_inputs():
    return [torch.randn(batch_size, 64, 28, 28, dtype=dtype)]


def get_init_inputs():
    return []
