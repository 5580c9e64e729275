import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv1d_pointwise -> batch_norm -> relu6 -> sqrt_abs (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 256, kernel_size=1, stride=1, padding=0)
        self.bn = nn.BatchNorm1d(256)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = F.relu6(x)
        x = torch.sqrt(x.abs() + 0.58)
        return x


batch_size = 392


def get_inputs():
    return [torch.randn(batch_size, 16, 2048, dtype=dtype)]


def get_init_inputs():
    return []
