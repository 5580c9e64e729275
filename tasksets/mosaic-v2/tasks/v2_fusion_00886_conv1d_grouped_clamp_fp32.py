import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_grouped, clamp
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 64, kernel_size=5, stride=1, padding=2, groups=4, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.clamp(x, min=-2.35, max=2.35)
        return x


batch_size = 768


def get_inputs():
    return [torch.randn(batch_size, 32, 16384, dtype=dtype)]


def get_init_inputs():
    return []
