import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d, abs, cos
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(64, 32, kernel_size=5, stride=1, padding=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.abs(x)
        x = torch.cos(x)
        return x


batch_size = 12700


def get_inputs():
    return [torch.randn(batch_size, 64, 1024, dtype=dtype)]


def get_init_inputs():
    return []
