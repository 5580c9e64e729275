import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d, mish
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 64, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.mish(x)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 32, 1024, dtype=dtype)]


def get_init_inputs():
    return []
