import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d, hardsigmoid, leaky_relu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardsigmoid(x)
        x = F.leaky_relu(x, negative_slope=0.35)
        return x


batch_size = 203


def get_inputs():
    return [torch.randn(batch_size, 3, 24, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
