import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv1d -> selu -> rsqrt_sq -> relu6 (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(64, 256, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.selu(x)
        x = torch.rsqrt(x * x + 1.0)
        x = F.relu6(x)
        return x


batch_size = 349


def get_inputs():
    return [torch.randn(batch_size, 64, 2048, dtype=dtype)]


def get_init_inputs():
    return []
