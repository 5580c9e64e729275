import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_dilated, softmax_channel, gelu, max_pool1d, hardswish
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 64, kernel_size=3, stride=1, padding=2, dilation=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.softmax(x, dim=1)
        x = F.gelu(x)
        x = F.max_pool1d(x, kernel_size=2, stride=2, padding=0)
        x = F.hardswish(x)
        return x


batch_size = 1330


def get_inputs():
    return [torch.randn(batch_size, 16, 2048, dtype=dtype)]


def get_init_inputs():
    return []
