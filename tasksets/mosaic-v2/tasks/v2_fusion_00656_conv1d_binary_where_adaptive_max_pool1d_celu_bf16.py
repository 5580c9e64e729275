import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d, binary_where, adaptive_max_pool1d, celu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(64, 128, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x, y):
        x = self.conv(x)
        x = torch.where(x > y, x, y * 0.5)
        x = F.adaptive_max_pool1d(x, 7)
        x = F.celu(x, alpha=1.04)
        return x


batch_size = 727


def get_inputs():
    return [torch.randn(batch_size, 64, 4096, dtype=dtype), torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
