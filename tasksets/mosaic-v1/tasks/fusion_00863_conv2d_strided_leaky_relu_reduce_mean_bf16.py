import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv2d_strided -> leaky_relu -> reduce_mean (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 256, kernel_size=3, stride=2, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.leaky_relu(x, negative_slope=0.08)
        x = torch.mean(x, dim=1)
        return x


batch_size = 708


def get_inputs():
    return [torch.randn(batch_size, 128, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
