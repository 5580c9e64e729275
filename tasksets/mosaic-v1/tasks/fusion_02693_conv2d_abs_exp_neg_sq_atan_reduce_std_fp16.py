import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv2d -> abs -> exp_neg_sq -> atan -> reduce_std (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 128, kernel_size=5, stride=1, padding=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.abs(x)
        x = torch.exp(-x * x)
        x = torch.atan(x)
        x = torch.std(x, dim=(2, 3))
        return x


batch_size = 910


def get_inputs():
    return [torch.randn(batch_size, 8, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
