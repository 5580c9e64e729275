import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d_depthwise, scale, bias_add, relu, mish, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 6, kernel_size=3, stride=1, padding=1, groups=3, bias=False)
        self.bias = nn.Parameter(torch.randn(6, 1, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * 0.67
        x = x + self.bias
        x = torch.relu(x)
        x = F.mish(x)
        x = torch.logsumexp(x, dim=(2, 3, 4))
        return x


batch_size = 514


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
