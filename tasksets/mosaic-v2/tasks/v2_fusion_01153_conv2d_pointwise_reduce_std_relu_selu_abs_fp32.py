import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv2d_pointwise, reduce_std, relu, selu, abs
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 16, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.std(x, dim=1)
        x = torch.relu(x)
        x = F.selu(x)
        x = torch.abs(x)
        return x


batch_size = 1003


def get_inputs():
    return [torch.randn(batch_size, 64, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
