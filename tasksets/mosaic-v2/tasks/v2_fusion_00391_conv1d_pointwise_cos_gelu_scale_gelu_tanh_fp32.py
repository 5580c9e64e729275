import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_pointwise, cos, gelu, scale, gelu_tanh
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 64, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.cos(x)
        x = F.gelu(x)
        x = x * 1.62
        x = F.gelu(x, approximate='tanh')
        return x


batch_size = 1623


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
