import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv1d_grouped -> reduce_mean_abs (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 256, kernel_size=5, stride=1, padding=2, groups=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.mean(x.abs(), dim=(2,))
        return x


batch_size = 892


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
