import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv2d_grouped -> hardswish -> reduce_std -> sin (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 128, kernel_size=3, stride=1, padding=1, groups=8)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardswish(x)
        x = torch.std(x, dim=1)
        x = torch.sin(x)
        return x


batch_size = 475


def get_inputs():
    return [torch.randn(batch_size, 32, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
