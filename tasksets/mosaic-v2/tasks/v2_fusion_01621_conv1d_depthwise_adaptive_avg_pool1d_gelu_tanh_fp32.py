import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_depthwise, adaptive_avg_pool1d, gelu_tanh
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 16, kernel_size=5, stride=1, padding=2, groups=16)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.adaptive_avg_pool1d(x, 2)
        x = F.gelu(x, approximate='tanh')
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
