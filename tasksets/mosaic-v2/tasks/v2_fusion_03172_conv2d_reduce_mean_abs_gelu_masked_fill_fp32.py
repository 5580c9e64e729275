import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d, reduce_mean_abs, gelu, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.mean(x.abs(), dim=1)
        x = F.gelu(x)
        x = x.masked_fill(x < 0.06, 0.0)
        return x


batch_size = 14


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
