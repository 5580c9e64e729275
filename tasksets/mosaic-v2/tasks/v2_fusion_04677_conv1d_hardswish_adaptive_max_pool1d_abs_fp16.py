import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv1d, hardswish, adaptive_max_pool1d, abs
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 256, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardswish(x)
        x = F.adaptive_max_pool1d(x, 4)
        x = torch.abs(x)
        return x


batch_size = 1066


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
