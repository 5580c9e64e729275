import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv1d_grouped -> sin -> scale (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 64, kernel_size=5, stride=1, padding=2, groups=4, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sin(x)
        x = x * 2.46
        return x


batch_size = 868


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
